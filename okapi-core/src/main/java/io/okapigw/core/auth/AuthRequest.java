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
 * @param userId the client's X-Okapi-User-Id, or {@code null}
 * @param requestId this hop's X-Okapi-Request-Id
 * @param okapiUrl the gateway's URL as modules should call it
 * @param pipeline the matched pipeline; {@code pipeline.auth()} is present
 */
public record AuthRequest(String tenant, HttpMethod method, String uri, String token,
    String userId, String requestId, String okapiUrl, Pipeline pipeline) {

  /** @return the auth filter's stage */
  public Stage filter() {
    return pipeline.auth().orElseThrow();
  }

  /** @return the matched handler's path pattern (cache key part; never the raw path) */
  public String pathPattern() {
    return pipeline.handler().pathPattern();
  }
}
