package io.okapigw.core.auth;

import io.vertx.core.Future;

/**
 * Decides whether a request may proceed. A grant says which token, user id and permissions the
 * handler gets; a denial fails with an {@link io.okapigw.core.http.HttpError} carrying the auth
 * module's 401/403 answer; an unreachable auth module fails with 503 (fail closed).
 */
@FunctionalInterface
public interface AuthStage {

  Future<AuthGrant> authorize(AuthRequest request);
}
