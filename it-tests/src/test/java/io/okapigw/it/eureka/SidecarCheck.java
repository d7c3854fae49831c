package io.okapigw.it.eureka;

import java.util.Optional;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs a side-by-side class only where a real folio-module-sidecar was built ({@link
 * ModuleSidecar#missing()}); elsewhere it is skipped with a notice saying what is missing and how
 * to build it, unless {@code -Dokapigw.sidecar.required=true}, where it fails.
 */
final class SidecarCheck implements ExecutionCondition {

  static final String REQUIRED = "okapigw.sidecar.required";

  @Override
  public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
    Optional<String> missing = SideBySide.missing();
    if (missing.isEmpty()) {
      return ConditionEvaluationResult.enabled("folio-module-sidecar found");
    }
    String notice =
        "NOTICE: the side-by-side tests with folio-module-sidecar are skipped: " + missing.get();
    if (Boolean.getBoolean(REQUIRED)) {
      throw new IllegalStateException(notice + ", but " + REQUIRED + "=true: they must run here");
    }
    System.err.println(notice);
    return ConditionEvaluationResult.disabled(notice);
  }
}
