package io.okapigw.it.containers;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.testcontainers.DockerClientFactory;

/**
 * Runs a container test class only where there is a Docker engine. Where there is none the class is
 * skipped with a notice, unless {@code -Dokapigw.containers.required=true} (CI after {@code
 * docker/offline-setup.sh}), where a missing engine fails the class: never a silent skip.
 */
public final class DockerCheck implements ExecutionCondition {

  static final String REQUIRED = "okapigw.containers.required";
  static final String NOTICE =
      "NOTICE: no Docker engine here: the container tests are skipped"
          + " (docker/offline-setup.sh installs and starts one)";

  @Override
  public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
    if (DockerClientFactory.instance().isDockerAvailable()) {
      return ConditionEvaluationResult.enabled("Docker engine available");
    }
    if (Boolean.getBoolean(REQUIRED)) {
      throw new IllegalStateException(
          "no Docker engine, but " + REQUIRED + "=true: " + "the container tests must run here");
    }
    System.err.println(NOTICE);
    return ConditionEvaluationResult.disabled(NOTICE);
  }
}
