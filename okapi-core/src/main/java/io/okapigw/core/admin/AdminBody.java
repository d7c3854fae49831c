package io.okapigw.core.admin;

import io.okapigw.core.http.HttpError;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;

/**
 * Reads an admin request's body whole, up to a limit (413 beyond it), whatever its content type:
 * the admin API speaks JSON even when a client such as {@code curl -d} labels it a form.
 */
final class AdminBody implements Handler<RoutingContext> {

  private static final String KEY = "okapigw.admin.body";

  private final long limit;

  AdminBody(long limit) {
    this.limit = limit;
  }

  /** @return the body read by this handler (empty if none) */
  static Buffer of(RoutingContext ctx) {
    Buffer body = ctx.get(KEY);
    return body == null ? Buffer.buffer() : body;
  }

  @Override
  public void handle(RoutingContext ctx) {
    HttpServerRequest request = ctx.request();
    String length = request.getHeader("Content-Length");
    if (length != null && parse(length) > limit) {
      ctx.fail(tooLarge());
      return;
    }
    Buffer body = Buffer.buffer();
    request.handler(chunk -> {
      if (ctx.failed()) {
        return;
      }
      if (body.length() + chunk.length() > limit) {
        ctx.fail(tooLarge());
        return;
      }
      body.appendBuffer(chunk);
    });
    request.endHandler(v -> {
      if (!ctx.failed()) {
        ctx.put(KEY, body);
        ctx.next();
      }
    });
    request.resume();
  }

  private static long parse(String length) {
    try {
      return Long.parseLong(length.trim());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private HttpError tooLarge() {
    return new HttpError(413, "admin request body larger than " + limit + " bytes");
  }
}
