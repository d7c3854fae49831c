package io.okapigw.core.auth;

import io.okapigw.cache.AuthDecision;
import io.vertx.core.Future;

/**
 * Decides whether a request may proceed. The future holds a grant (a 2xx decision: which token,
 * user id and permissions the handler gets), or fails with an {@link
 * io.okapigw.core.http.HttpError}: the auth module's 401/403 answer as is, or 503 when the auth
 * module cannot decide (unreachable, or an answer other than 2xx/4xx). Fail closed.
 */
@FunctionalInterface
public interface AuthStage {

  Future<AuthDecision> authorize(AuthRequest request);
}
