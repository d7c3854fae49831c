package io.okapigw.it.differential;

import io.okapigw.it.ReferenceOkapi;
import io.okapigw.testsupport.FreePorts;
import io.okapigw.testsupport.process.JavaProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Okapi built from source (see the project's ENVIRONMENT notes), outside the project: its fat jar
 * from {@code -Dokapi.jar=PATH} (or {@code OKAPI_JAR}), else Okapi 6.1.5 where {@link
 * ReferenceOkapi#v615()} finds it, run by {@code -Dokapi.java=PATH} (or {@code OKAPI_JAVA}; Okapi 7
 * needs Java 21), else by this JVM's java. As an execution condition it skips a test class with a
 * printed notice when there is no jar, and fails it when the jar given is missing: never a silent
 * skip.
 */
final class OkapiReference implements ExecutionCondition {

  static final String NOTICE =
      "NOTICE: no Okapi to compare with: the side-by-side run is skipped"
          + " (give an Okapi fat jar with -Dokapi.jar=.../okapi-core/target/okapi-core-fat.jar,"
          + " or build Okapi 6.1.5 where -Dokapigw.okapi615.jar points)";

  @Override
  public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
    Optional<Path> jar = jar();
    if (jar.isEmpty()) {
      System.err.println(NOTICE);
      return ConditionEvaluationResult.disabled(NOTICE);
    }
    if (!Files.isRegularFile(jar.get())) {
      throw new IllegalStateException("okapi.jar " + jar.get() + " does not exist");
    }
    return ConditionEvaluationResult.enabled("Okapi at " + jar.get());
  }

  static Optional<Path> jar() {
    return setting("okapi.jar", "OKAPI_JAR")
        .map(Path::of)
        .or(() -> ReferenceOkapi.v615().map(ReferenceOkapi::jar));
  }

  private static Optional<String> setting(String property, String variable) {
    String value = System.getProperty(property, System.getenv(variable));
    return value == null || value.isBlank() ? Optional.empty() : Optional.of(value);
  }

  /**
   * Starts Okapi in {@code dev} mode (in-memory storage) on a free port and waits until it answers.
   *
   * @param log where its output goes
   * @return the process and its base URL
   */
  static Running start(Path log) throws IOException {
    int port = FreePorts.belowEphemeralRange();
    String url = "http://127.0.0.1:" + port;
    Path java =
        setting("okapi.java", "OKAPI_JAVA")
            .map(Path::of)
            .orElse(Path.of(System.getProperty("java.home"), "bin", "java"));
    JavaProcess process =
        JavaProcess.start(
            "Okapi",
            java,
            List.of(
                "-Dport=" + port,
                "-Dokapiurl=" + url,
                "-Dloglevel=WARN",
                "-jar",
                jar().orElseThrow().toString(),
                "dev"),
            log);
    process.awaitReady(url + "/_/version", JavaProcess.PATIENCE);
    return new Running(process, url);
  }

  /**
   * A started Okapi.
   *
   * @param process its process
   * @param url its base URL
   */
  record Running(JavaProcess process, String url) implements AutoCloseable {
    @Override
    public void close() {
      process.close();
    }
  }
}
