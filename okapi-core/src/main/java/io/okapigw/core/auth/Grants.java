package io.okapigw.core.auth;

import io.okapigw.cache.AuthDecision;
import io.okapigw.core.http.HttpError;

/** What an auth decision means for the request and for each module it reaches. */
public final class Grants {

  private Grants() {
  }

  /**
   * @return the decision if it is a grant
   * @throws HttpError the refusal passed through for 4xx answers; 503 for anything else
   */
  public static AuthDecision requireGrant(AuthDecision decision) {
    if (decision.isGrant()) {
      return decision;
    }
    int status = decision.status();
    if (status / 100 == 4) {
      return failWith(new HttpError(status,
          decision.body().isEmpty() ? "access denied by the auth module" : decision.body(),
          decision.contentType().isEmpty() ? "text/plain; charset=utf-8" : decision.contentType()));
    }
    return failWith(HttpError.unavailable("auth module answered " + status + "; request refused"));
  }

  /**
   * Okapi's rule for the token a module gets: its own module token, else the {@code _} token,
   * else the answer's token, else the client's.
   */
  public static String tokenFor(AuthDecision grant, String moduleId, String clientToken) {
    String own = grant.moduleTokens().get(moduleId);
    if (own != null) {
      return own;
    }
    String fallback = grant.moduleTokens().get("_");
    if (fallback != null) {
      return fallback;
    }
    return grant.moduleToken().isEmpty() ? clientToken : grant.moduleToken();
  }

  private static AuthDecision failWith(HttpError error) {
    throw error;
  }
}
