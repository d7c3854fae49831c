package io.okapigw.it.containers;

import org.junit.jupiter.api.Assumptions;
import org.testcontainers.DockerClientFactory;

/**
 * Whether the container tests can run: they need a Docker engine. Where there is none they are
 * skipped with a notice, unless {@code -Dokapigw.containers.required=true} (CI after
 * {@code docker/offline-setup.sh}), where a missing engine is a failure, never a silent skip.
 */
final class DockerCheck {

  static final String REQUIRED = "okapigw.containers.required";

  private DockerCheck() {
  }

  /** Skips (or fails, if required) the calling test class when Docker is absent. */
  static void requireDockerOrSkip() {
    if (DockerClientFactory.instance().isDockerAvailable()) {
      return;
    }
    String notice = "NOTICE: no Docker engine here: the container tests are skipped"
        + " (docker/offline-setup.sh installs and starts one)";
    if (Boolean.getBoolean(REQUIRED)) {
      throw new IllegalStateException("no Docker engine, but " + REQUIRED + "=true: "
          + "the container tests must run here");
    }
    System.err.println(notice);
    Assumptions.abort(notice);
  }
}
