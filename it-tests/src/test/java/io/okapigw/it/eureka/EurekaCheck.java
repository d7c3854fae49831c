package io.okapigw.it.eureka;

import io.okapigw.testsupport.eureka.KafkaBroker;
import io.okapigw.testsupport.eureka.KeycloakServer;
import java.util.Optional;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs an Eureka test class only where a real Keycloak and a real Kafka broker can start (it-tests'
 * {@code eureka} profile brings both from Maven Central). Elsewhere the class is skipped with a
 * notice saying why, unless {@code -Dokapigw.eureka.required=true} ({@code .ci/run}), where it
 * fails: never a silent skip.
 */
final class EurekaCheck implements ExecutionCondition {

  static final String REQUIRED = "okapigw.eureka.required";

  @Override
  public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
    Optional<String> missing = KeycloakServer.missing().or(KafkaBroker::missing);
    if (missing.isEmpty()) {
      return ConditionEvaluationResult.enabled("Keycloak and Kafka found");
    }
    String notice =
        "NOTICE: "
            + missing.get()
            + ": the Eureka tests (real Keycloak, real Kafka) are skipped; run mvn verify -Peureka";
    if (Boolean.getBoolean(REQUIRED)) {
      throw new IllegalStateException(notice + ", but " + REQUIRED + "=true: they must run here");
    }
    System.err.println(notice);
    return ConditionEvaluationResult.disabled(notice);
  }
}
