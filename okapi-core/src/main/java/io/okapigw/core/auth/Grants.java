package io.okapigw.core.auth;

import io.okapigw.cache.AuthDecision;
import io.okapigw.core.http.HttpError;

/** What an auth decision means for the request and for each module it reaches. */
public final class Grants {

  private Grants() {}

  /**
   * @return the decision if it is a grant
   * @throws AuthRefusal the auth module's 4xx answer, passed to the client as it is
   * @throws HttpError 503 for any other answer
   */
  public static AuthDecision requireGrant(AuthDecision decision) {
    if (decision.isGrant()) {
      return decision;
    }
    int status = decision.status();
    if (status / 100 == 4) {
      return failWith(
          new AuthRefusal(
              status,
              decision.body().isEmpty() ? "access denied by the auth module" : decision.body(),
              decision.contentType().isEmpty()
                  ? "text/plain; charset=utf-8"
                  : decision.contentType()));
    }
    return failWith(HttpError.unavailable("auth module answered " + status + "; request refused"));
  }

  /**
   * Okapi 6's rule for the token a module gets: its own entry of the answer's {@code
   * X-Okapi-Module-Tokens}, else its {@code _} entry, else the client's token (the answer's {@code
   * X-Okapi-Token} is not used, as in Okapi).
   */
  public static String tokenFor(AuthDecision grant, String moduleId, String clientToken) {
    String own = grant.moduleTokens().get(moduleId);
    if (own != null) {
      return own;
    }
    return grant.moduleTokens().getOrDefault("_", clientToken);
  }

  /**
   * @return whether {@code token} is one the auth module issued for a module of this grant
   */
  public static boolean isModuleToken(AuthDecision grant, String token) {
    return grant.moduleTokens().containsValue(token);
  }

  private static AuthDecision failWith(HttpError error) {
    throw error;
  }
}
