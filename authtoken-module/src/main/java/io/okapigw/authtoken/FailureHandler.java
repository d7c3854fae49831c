package io.okapigw.authtoken;

import io.vertx.core.Handler;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one failure handler: turns any failure of a route into a response with the
 * status of its {@link ApiException}. The body is plain text, or JSON
 * {@code {"message": ..., "status": ...}} when the client accepts only JSON.
 */
public final class FailureHandler implements Handler<RoutingContext> {
  private static final Logger LOG = LoggerFactory.getLogger(FailureHandler.class);

  @Override
  public void handle(RoutingContext ctx) {
    ApiException error = ApiException.from(ctx.failure(), ctx.statusCode());
    if (error.status() >= 500) {
      LOG.error("{} {} failed", ctx.request().method(), ctx.request().path(), ctx.failure());
    } else {
      LOG.debug("{} {} -> {} {}", ctx.request().method(), ctx.request().path(), error.status(),
          error.getMessage());
    }
    if (ctx.response().headWritten()) {
      ctx.response().reset();
      return;
    }
    respond(ctx, error);
  }

  /**
   * Writes the error response.
   *
   * @param ctx the routing context
   * @param error the error
   */
  public static void respond(RoutingContext ctx, ApiException error) {
    String accept = ctx.request().getHeader(HttpHeaders.ACCEPT);
    boolean json = accept != null && accept.contains("application/json") && !accept.contains("text/plain");
    String body = json
        ? new JsonObject().put("message", error.getMessage()).put("status", error.status()).encode()
        : error.getMessage();
    ctx.response()
        .setStatusCode(error.status())
        .putHeader(HttpHeaders.CONTENT_TYPE, json ? "application/json" : "text/plain; charset=utf-8")
        .end(body);
  }
}
