package io.okapigw.core.admin;

import io.okapigw.core.http.HttpError;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.DecodeException;
import io.vertx.ext.web.RoutingContext;

/**
 * Reads an admin request's body whole, up to a limit (413 naming it beyond), whatever its content
 * type: the admin API speaks JSON even when a client such as {@code curl -d} labels it a form. A
 * body larger than {@link #INLINE_PARSE_BYTES} is parsed as JSON on a worker thread, so that a big
 * module descriptor never holds the event loop its proxied requests run on.
 */
final class AdminBody implements Handler<RoutingContext> {

  /** Bodies up to this size are parsed on the event loop (well under a millisecond). */
  static final int INLINE_PARSE_BYTES = 16 * 1024;

  /** How much of a too large body is read and dropped before the connection is closed. */
  static final long DISCARD_BYTES = 16L * 1024 * 1024;

  private static final String BODY = "okapigw.admin.body";
  private static final String JSON = "okapigw.admin.json";

  private final long limit;

  AdminBody(long limit) {
    this.limit = limit;
  }

  /**
   * @return the body read by this handler (empty if none)
   */
  static Buffer of(RoutingContext ctx) {
    Buffer body = ctx.get(BODY);
    return body == null ? Buffer.buffer() : body;
  }

  /**
   * @return the body as parsed JSON (a {@code JsonObject}, {@code JsonArray} or scalar); {@code
   *     null} if the body is empty
   * @throws DecodeException if the body is not JSON
   */
  static Object json(RoutingContext ctx) {
    Parsed parsed = ctx.get(JSON);
    if (parsed == null) {
      return null;
    }
    if (parsed.error() != null) {
      throw parsed.error();
    }
    return parsed.value();
  }

  @Override
  public void handle(RoutingContext ctx) {
    HttpServerRequest request = ctx.request();
    String length = request.getHeader("Content-Length");
    if (length != null && parse(length) > limit) {
      tooLarge(ctx);
    }
    Buffer body = Buffer.buffer();
    long[] discarded = {0};
    request.handler(
        chunk -> {
          if (!ctx.failed() && body.length() + chunk.length() > limit) {
            tooLarge(ctx);
          }
          if (!ctx.failed()) {
            append(ctx, body, chunk);
          } else if ((discarded[0] += chunk.length()) > DISCARD_BYTES) {
            request.connection().close();
          }
        });
    request.endHandler(
        v -> {
          if (!ctx.failed()) {
            ctx.put(BODY, body);
            decode(ctx, body)
                .onSuccess(
                    parsed -> {
                      ctx.put(JSON, parsed);
                      ctx.next();
                    })
                .onFailure(ctx::fail);
          }
        });
    request.resume();
  }

  /**
   * A piece that cannot be added (memory running out) fails the request: Vert.x would report the
   * throwable and go on reading, and the body after the hole would be taken for the whole.
   */
  private static void append(RoutingContext ctx, Buffer body, Buffer chunk) {
    try {
      body.appendBuffer(chunk);
    } catch (Throwable e) { // NOSONAR an OutOfMemoryError too
      ctx.fail(
          HttpError.unavailable(
              "the request body could not be read whole ("
                  + e.getClass().getSimpleName()
                  + "); retry later"));
    }
  }

  private static Future<Parsed> decode(RoutingContext ctx, Buffer body) {
    if (body.length() == 0) {
      return Future.succeededFuture();
    }
    if (body.length() <= INLINE_PARSE_BYTES) {
      return Future.succeededFuture(Parsed.of(body));
    }
    return ctx.vertx().executeBlocking(() -> Parsed.of(body), false);
  }

  private static long parse(String length) {
    try {
      return Long.parseLong(length.trim());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /**
   * Fails with 413 naming the limit, and closes the connection once the request ends. The rest of
   * the body is read and dropped, as most clients read no answer before their upload is done;
   * beyond {@link #DISCARD_BYTES} the connection is closed at once.
   */
  private void tooLarge(RoutingContext ctx) {
    ctx.response().putHeader("Connection", "close");
    ctx.fail(
        new HttpError(
            413,
            "admin request body larger than "
                + limit
                + " bytes ("
                + limit / 1024
                + " KiB); module descriptors are far smaller (mod-circulation's is about"
                + " 105 KiB)"));
  }

  /** The body parsed as JSON, or why it could not be. */
  private record Parsed(Object value, DecodeException error) {

    static Parsed of(Buffer body) {
      try {
        return new Parsed(body.toJsonValue(), null);
      } catch (DecodeException e) {
        return new Parsed(null, e);
      }
    }
  }
}
