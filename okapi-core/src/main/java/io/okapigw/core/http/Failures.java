package io.okapigw.core.http;

import io.okapigw.core.http.FailureLog.Kind;
import io.vertx.core.Handler;
import io.vertx.core.VertxException;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.StreamResetException;
import io.vertx.core.json.DecodeException;
import io.vertx.ext.web.RoutingContext;
import java.io.IOException;
import java.util.Locale;
import java.util.function.LongSupplier;
import org.slf4j.LoggerFactory;

/**
 * Turns any failure into a plain-text response (with {@code Retry-After} when the {@link HttpError}
 * carries one); the one place where errors become HTTP. Every failure is logged as one line
 * (status, method, path, request id, reason; no stack trace, no token), rate-limited per kind by
 * {@link FailureLog}: a client's mistake (4xx) at INFO, a module's failure (5xx) at WARN, a
 * connection that broke before the answer was complete at INFO. Only a bug (anything else, 500)
 * carries a stack trace, the first of each interval.
 */
public final class Failures {

  private static volatile FailureLog failureLog = failureLog(System::nanoTime);

  private Failures() {}

  private static FailureLog failureLog(LongSupplier nanoTime) {
    return FailureLog.create(
        LoggerFactory.getLogger(Failures.class),
        FailureLog.DEFAULT_LINES,
        FailureLog.DEFAULT_INTERVAL,
        nanoTime);
  }

  /**
   * Tests: a new failure log, nothing logged or counted yet, on the clock given ({@code
   * System::nanoTime} again when done), so that a count does not depend on when the minute turns.
   */
  static void useClock(LongSupplier nanoTime) {
    failureLog = failureLog(nanoTime);
  }

  /**
   * For {@code router.errorHandler(status, ...)}: what vert.x-web calls for a failure it raises
   * before any route (it logs a stack trace when there is none), without the failure itself.
   *
   * @param status the status the handler is registered for
   * @param message what the client is told
   */
  public static Handler<RoutingContext> errorHandler(int status, String message) {
    return ctx ->
        respond(
            ctx.request(), ctx.failure() != null ? ctx.failure() : new HttpError(status, message));
  }

  /** Router failure handler: {@code router.route().failureHandler(Failures::handle)}. */
  public static void handle(RoutingContext ctx) {
    Throwable failure = ctx.failure();
    if (failure == null) {
      int status = ctx.statusCode() > 0 ? ctx.statusCode() : 500;
      failure = new HttpError(status, defaultMessage(status));
    }
    respond(ctx.request(), failure);
  }

  /**
   * Logs the failure with what the request says of itself (method, path, request id) and writes it
   * to the response unless the response has already started.
   */
  public static void respond(HttpServerRequest request, Throwable failure) {
    respond(request, request.response(), failure);
  }

  /** Logs the failure and writes it to the response unless the response has already started. */
  public static void respond(HttpServerResponse response, Throwable failure) {
    respond(null, response, failure);
  }

  /** Writes a plain-text error unless the response has already started; logs nothing. */
  public static void respond(HttpServerResponse response, int status, String message) {
    write(response, status, message, "text/plain; charset=utf-8");
  }

  private static void respond(
      HttpServerRequest request, HttpServerResponse response, Throwable failure) {
    boolean gone = response.closed() || response.ended();
    boolean broken = isBrokenConnection(failure);
    if (gone && (broken || failure instanceof HttpError)) {
      // the client hung up (or the answer was cut): whatever failed after, it hears nothing
      log(
          Kind.BROKEN,
          request,
          -1,
          (response.ended()
                  ? "failed after the answer was sent ("
                  : "connection closed before the answer was complete (")
              + (failure instanceof HttpError e
                  ? e.status() + " " + e.getMessage()
                  : describe(failure))
              + ")",
          null);
    } else if (failure instanceof HttpError e) {
      log(
          e.status() >= 500 ? Kind.UPSTREAM : Kind.CLIENT,
          request,
          e.status(),
          e.getMessage(),
          null);
      if (e.retryAfterSeconds() > 0 && !response.headWritten()) {
        response.putHeader("Retry-After", Long.toString(e.retryAfterSeconds()));
      }
      write(response, e.status(), e.getMessage(), e.contentType());
    } else if (failure instanceof DecodeException || failure instanceof IllegalArgumentException) {
      String message =
          (failure instanceof DecodeException ? "malformed JSON: " : "")
              + firstLine(failure.getMessage());
      log(Kind.CLIENT, request, 400, message, null);
      respond(response, 400, message);
    } else if (broken && !response.headWritten()) {
      String message = "connection to a module failed: " + describe(failure);
      log(Kind.UPSTREAM, request, 502, message, null);
      respond(response, 502, message);
    } else if (broken) {
      log(
          Kind.BROKEN,
          request,
          -1,
          "connection broken while answering: " + describe(failure),
          null);
      resetIfStarted(response);
    } else {
      log(Kind.INTERNAL, request, 500, "unexpected failure: " + describe(failure), failure);
      respond(response, 500, "internal error: " + failure.getClass().getSimpleName());
    }
  }

  private static void log(
      Kind kind, HttpServerRequest request, int status, String reason, Throwable failure) {
    StringBuilder line = new StringBuilder();
    line.append(status > 0 ? Integer.toString(status) : "-");
    if (request != null) {
      line.append(' ').append(request.method().name()).append(' ').append(request.path());
      String id = request.getHeader(OkapiHeaders.REQUEST_ID);
      if (id != null) {
        line.append(" [").append(RequestIds.loggable(id)).append(']');
      }
    }
    failureLog.log(kind, line.append(": ").append(firstLine(reason)).toString(), failure);
  }

  /**
   * @return whether the failure is a connection that closed or was reset (either side's), not a
   *     bug: Vert.x's "Connection was closed", stream resets, socket errors
   */
  static boolean isBrokenConnection(Throwable failure) {
    Throwable t = failure;
    for (int depth = 0; t != null && depth < 10; depth++, t = t.getCause()) {
      if (t instanceof IOException
          || t instanceof StreamResetException
          || t instanceof HttpClosedException
          || t instanceof VertxException
              && t.getMessage() != null
              && t.getMessage().toLowerCase(Locale.ROOT).contains("closed")) {
        return true;
      }
    }
    return false;
  }

  private static String describe(Throwable failure) {
    String message = failure.getMessage();
    return failure.getClass().getSimpleName() + (message == null ? "" : ": " + message);
  }

  private static void write(
      HttpServerResponse response, int status, String message, String contentType) {
    if (resetIfStarted(response)) {
      return;
    }
    response
        .setStatusCode(status)
        .putHeader("Content-Type", contentType)
        .end(message == null ? defaultMessage(status) : message);
  }

  /**
   * @return whether the response has started (then it is reset) or is over
   */
  private static boolean resetIfStarted(HttpServerResponse response) {
    if (response.ended() || response.closed()) {
      return true;
    }
    if (response.headWritten()) {
      response.reset();
      return true;
    }
    return false;
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
