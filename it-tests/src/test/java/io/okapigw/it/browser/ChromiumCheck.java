package io.okapigw.it.browser;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs a browser test class only where Chromium and its driver are installed. Where they are not,
 * the class is skipped with a notice saying what is missing, unless {@code
 * -Dokapigw.browser.required=true} ({@code .ci/run} after installing them), where it fails: never a
 * silent skip.
 */
final class ChromiumCheck implements ExecutionCondition {

  static final String REQUIRED = "okapigw.browser.required";

  @Override
  public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
    String missing =
        Chromium.browser().isEmpty()
            ? "no chromium"
            : Chromium.driver().isEmpty() ? "no chromedriver" : null;
    if (missing == null) {
      return ConditionEvaluationResult.enabled("Chromium and chromedriver found");
    }
    String notice =
        "NOTICE: "
            + missing
            + " on the PATH (-D"
            + Chromium.BROWSER_PROPERTY
            + ", -D"
            + Chromium.DRIVER_PROPERTY
            + "): the browser tests are skipped"
            + " (apt-get install chromium chromium-driver; .ci/run does)";
    if (Boolean.getBoolean(REQUIRED)) {
      throw new IllegalStateException(notice + ", but " + REQUIRED + "=true: they must run here");
    }
    System.err.println(notice);
    return ConditionEvaluationResult.disabled(notice);
  }
}
