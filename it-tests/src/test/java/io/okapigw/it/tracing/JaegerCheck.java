package io.okapigw.it.tracing;

import io.okapigw.demo.Jaeger;
import io.okapigw.testsupport.FreePorts;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs a test class of Jaeger's own (its UI: {@link JaegerUiTest}) only where the Jaeger binary is
 * built ({@link Jaeger#binary()}, {@code bash .ci/jaeger.sh}). Where it is not, the class is
 * skipped with a notice saying so, unless {@code -Dokapigw.jaeger.required=true}, where it fails:
 * never a silent skip. The spans are checked without Jaeger ({@link OtlpReceiver}).
 */
final class JaegerCheck implements ExecutionCondition {

  static final String REQUIRED = "okapigw.jaeger.required";

  @Override
  public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
    if (Jaeger.binary().isPresent()) {
      return ConditionEvaluationResult.enabled("Jaeger found: " + Jaeger.binary().get());
    }
    String notice = "NOTICE: " + Jaeger.missing() + ": the Jaeger UI tests are skipped";
    if (Boolean.getBoolean(REQUIRED)) {
      throw new IllegalStateException(notice + ", but " + REQUIRED + "=true: they must run here");
    }
    System.err.println(notice);
    return ConditionEvaluationResult.disabled(notice);
  }

  /**
   * Starts the Jaeger binary found on free ports (OTLP, query API, query gRPC).
   *
   * @param dir its working directory and log
   */
  static Jaeger startJaeger(Path dir) throws IOException {
    return Jaeger.start(
        Jaeger.binary().orElseThrow(),
        FreePorts.belowEphemeralRange(),
        FreePorts.belowEphemeralRange(),
        FreePorts.belowEphemeralRange(),
        dir);
  }
}
