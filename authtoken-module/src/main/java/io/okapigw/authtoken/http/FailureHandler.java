package io.okapigw.authtoken.http;

import io.vertx.core.Handler;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.net.SocketException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one failure handler: turns any failure of a route into a response with the status of its
 * {@link ApiException}. The body is plain text, or JSON {@code {"message": ..., "status": ...}}
 * when the client accepts only JSON.
 */
public final class FailureHandler implements Handler<RoutingContext> {
  private static final Logger LOG = LoggerFactory.getLogger(FailureHandler.class);
  private static final String CLIENT_LEFT = FailureHandler.class.getName() + ".clientLeft";

  @Override
  public void handle(RoutingContext ctx) {
    if (clientLeft(ctx)) {
      if (ctx.data().put(CLIENT_LEFT, true) != null) {
        return; // a reset is reported twice: as the reset, then as the close
      }
      LOG.debug(
          "{} {}: client left before the answer ({})",
          ctx.request().method(),
          ctx.request().path(),
          ctx.failure().getMessage());
      return;
    }
    ApiException error = ApiException.from(ctx.failure(), ctx.statusCode());
    if (error.status() == 503) {
      LOG.warn(
          "{} {} -> 503 {}: {}",
          ctx.request().method(),
          ctx.request().path(),
          error.getMessage(),
          ctx.failure() == null ? "" : ctx.failure().toString());
    } else if (error.status() >= 500) {
      LOG.error("{} {} failed", ctx.request().method(), ctx.request().path(), ctx.failure());
    } else {
      LOG.debug(
          "{} {} -> {} {}",
          ctx.request().method(),
          ctx.request().path(),
          error.status(),
          error.getMessage());
    }
    if (ctx.response().headWritten()) {
      ctx.response().reset();
      return;
    }
    respond(ctx, error);
  }

  /**
   * A client that closes or resets its connection mid-request fails the route with the connection's
   * exception: nothing to answer, and nothing wrong here. Told by the response being closed, or by
   * a connection failure while the request was still being read: a connection this module opened
   * (to its database, to the gateway) fails with the same exception types once the request has been
   * read, and that request must be answered (it used to get no answer at all).
   */
  private static boolean clientLeft(RoutingContext ctx) {
    Throwable failure = ctx.failure();
    return failure != null
        && !(failure instanceof ApiException)
        && (ctx.response().closed()
            || !ctx.request().isEnded()
                && (failure instanceof HttpClosedException || failure instanceof SocketException));
  }

  /**
   * Writes the error response.
   *
   * @param ctx the routing context
   * @param error the error
   */
  public static void respond(RoutingContext ctx, ApiException error) {
    String accept = ctx.request().getHeader(HttpHeaders.ACCEPT);
    boolean json =
        accept != null && accept.contains("application/json") && !accept.contains("text/plain");
    String body =
        json
            ? new JsonObject()
                .put("message", error.getMessage())
                .put("status", error.status())
                .encode()
            : error.getMessage();
    if (error.retryAfterSeconds() > 0) {
      ctx.response().putHeader(HttpHeaders.RETRY_AFTER, Long.toString(error.retryAfterSeconds()));
    }
    ctx.response()
        .setStatusCode(error.status())
        .putHeader(
            HttpHeaders.CONTENT_TYPE, json ? "application/json" : "text/plain; charset=utf-8")
        .end(body);
  }
}
