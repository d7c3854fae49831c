package io.okapigw.core.http;

import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.DecodeException;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Turns any failure into a plain-text response; the one place where errors become HTTP. */
public final class Failures {

  private static final Logger log = LoggerFactory.getLogger(Failures.class);

  private Failures() {
  }

  /** Router failure handler: {@code router.route().failureHandler(Failures::handle)}. */
  public static void handle(RoutingContext ctx) {
    Throwable failure = ctx.failure();
    if (failure == null) {
      int status = ctx.statusCode() > 0 ? ctx.statusCode() : 500;
      respond(ctx.response(), status, defaultMessage(status));
      return;
    }
    respond(ctx.response(), failure);
  }

  /** Writes the failure to the response unless the response has already started. */
  public static void respond(HttpServerResponse response, Throwable failure) {
    if (failure instanceof HttpError e) {
      respond(response, e.status(), e.getMessage(), e.contentType());
    } else if (failure instanceof DecodeException e) {
      respond(response, 400, "malformed JSON: " + firstLine(e.getMessage()));
    } else if (failure instanceof IllegalArgumentException e) {
      respond(response, 400, e.getMessage());
    } else {
      log.error("unexpected failure", failure);
      respond(response, 500, "internal error: " + failure.getClass().getSimpleName());
    }
  }

  /** Writes a plain-text error unless the response has already started. */
  public static void respond(HttpServerResponse response, int status, String message) {
    respond(response, status, message, "text/plain; charset=utf-8");
  }

  private static void respond(HttpServerResponse response, int status, String message,
      String contentType) {
    if (response.headWritten() || response.ended() || response.closed()) {
      if (!response.ended() && !response.closed()) {
        response.reset();
      }
      return;
    }
    response.setStatusCode(status)
        .putHeader("Content-Type", contentType)
        .end(message == null ? defaultMessage(status) : message);
  }

  private static String defaultMessage(int status) {
    return switch (status) {
      case 404 -> "not found";
      case 405 -> "method not allowed";
      case 413 -> "request body too large";
      case 431 -> "request header fields too large";
      default -> "error " + status;
    };
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
