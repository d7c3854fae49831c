package io.okapigw.core.auth;

import io.okapigw.core.routing.Pipeline;
import io.okapigw.core.routing.Stage;
import io.vertx.core.http.HttpMethod;

/**
 * What the auth stage needs to decide on one request.
 *
 * @param tenant the tenant id
 * @param method the client's method
 * @param uri the client's path and query
 * @param token the client's token, or {@code null}
 * @param userId the X-Okapi-User-Id the client sent with its token, or {@code null}
 * @param pipeline the matched pipeline; {@code pipeline.auth()} is present
 * @param headers writes the request's common headers for the auth filter's call: no credentials of
 *     the client's (no cookies either)
 */
public record AuthRequest(
    String tenant,
    HttpMethod method,
    String uri,
    String token,
    String userId,
    Pipeline pipeline,
    StageHeaders headers) {

  /**
   * @return the auth filter's stage
   */
  public Stage filter() {
    return pipeline.auth().orElseThrow();
  }

  /**
   * @return the route part of the cache key (see {@link Pipeline#cacheRoute()}; no raw path)
   */
  public String cacheRoute() {
    return pipeline.cacheRoute();
  }
}
