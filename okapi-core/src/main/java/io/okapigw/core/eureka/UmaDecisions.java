package io.okapigw.core.eureka;

import io.okapigw.cache.AuthDecision;
import io.okapigw.core.http.HttpError;
import io.okapigw.core.upstream.ModuleCall.Answer;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Keycloak's decision on one request, asked as the sidecar asks it ({@code KeycloakClient
 * .evaluatePermissions}): {@code POST {keycloak}/realms/{tenant}/protocol/openid-connect/token}
 * with the caller's token as {@code Authorization: Bearer} and the form {@code
 * grant_type=urn:ietf:params: oauth:grant-type:uma-ticket}, {@code permission={static
 * path}#{METHOD}}, {@code audience={tenant} -login-application}, {@code response_mode=decision}, in
 * that order. 200 grants, 403 denies, 401 refuses the token (its session ended), another 4xx (400
 * {@code invalid_resource}: a scope Keycloak has not) is passed on as the sidecar passes it (cached
 * as a denial); 408, 429 and 5xx are Keycloak failing: 503 with {@code Retry-After}, nothing
 * cached, an older grant served if stale-if-error allows.
 */
public final class UmaDecisions {

  static final String GRANT_TYPE = "urn:ietf:params:oauth:grant-type:uma-ticket";

  private final EurekaCalls keycloak;
  private final EurekaOptions options;

  public UmaDecisions(EurekaCalls keycloak, EurekaOptions options) {
    this.keycloak = keycloak;
    this.options = options;
  }

  /**
   * @param permission {@code {static path}#{METHOD}}
   * @param token the caller's verified token
   * @return a grant naming the token's user, or a 401/403 refusal; failed with 503 otherwise
   */
  public Future<AuthDecision> decide(String tenant, String permission, KeycloakToken token) {
    return keycloak
        .postForm(
            "/realms/" + tenant + "/protocol/openid-connect/token",
            form(tenant, permission),
            token.raw())
        .map(answer -> decision(answer, tenant, permission, token));
  }

  /**
   * @return the form, in the sidecar's order ({@code TokenRequestHelper
   *     .prepareUmaDecisionRequestBody})
   */
  Map<String, String> form(String tenant, String permission) {
    Map<String, String> form = new LinkedHashMap<>();
    form.put("grant_type", GRANT_TYPE);
    form.put("permission", permission);
    form.put("audience", tenant + options.loginClientSuffix());
    form.put("response_mode", "decision");
    return form;
  }

  private static AuthDecision decision(
      Answer answer, String tenant, String permission, KeycloakToken token) {
    return switch (answer.status()) {
      case 200 -> AuthDecision.grant(200, null, token.userId(), null, null);
      case 403 -> denial(EurekaErrors.forbidden("Access Denied: Keycloak denies " + permission));
      case 401 ->
          denial(
              EurekaErrors.unauthorized("Keycloak refuses the token (its session may have ended)"));
      case 408, 429 -> throw failing(answer, tenant, permission);
      default -> {
        if (answer.status() >= 400 && answer.status() < 500) {
          yield denial(
              EurekaErrors.keycloakRefused(
                  answer.status(),
                  "Authorization service error: Keycloak answered "
                      + answer.status()
                      + errorOf(answer)
                      + " to the decision on "
                      + permission));
        }
        throw failing(answer, tenant, permission);
      }
    };
  }

  private static HttpError failing(Answer answer, String tenant, String permission) {
    return EurekaErrors.unavailable(
        "Keycloak answered "
            + answer.status()
            + " to the decision on "
            + permission
            + " in realm "
            + tenant
            + "; try again later");
  }

  /**
   * @return Keycloak's OAuth {@code error} ({@code invalid_resource}, ...) in parentheses, or
   *     nothing; never its description, which may echo the request
   */
  private static String errorOf(Answer answer) {
    try {
      String error = new JsonObject(answer.body()).getString("error");
      return error != null && error.matches("[a-z_]{1,64}") ? " (" + error + ")" : "";
    } catch (RuntimeException e) {
      return "";
    }
  }

  private static AuthDecision denial(io.okapigw.core.auth.AuthRefusal refusal) {
    return AuthDecision.refusal(refusal.status(), refusal.getMessage(), refusal.contentType());
  }
}
