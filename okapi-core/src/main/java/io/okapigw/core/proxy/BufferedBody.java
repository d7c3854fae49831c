package io.okapigw.core.proxy;

import io.okapigw.config.Sizes;
import io.okapigw.core.http.HttpError;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import java.util.function.BiConsumer;

/**
 * A client's body read whole, within a request's bound and the node's {@link BodyBudget}: the body
 * or a failure, never a part of it taken for the whole. A failure of any kind while it is read (an
 * {@link OutOfMemoryError} growing the buffer included: Vert.x would report a handler's throwable
 * and go on reading, so the next pieces would join a body with a hole in it) fails the read, and
 * the rest of the body is dropped.
 */
final class BufferedBody {

  private BufferedBody() {}

  /**
   * @param in the client's request, paused
   * @param claim the request's room in the node's budget, grown as the body needs it
   * @return the body whole; failed 413 past {@link BufferOptions#perRequest}, 503 (with {@code
   *     Retry-After}) when the node's budget has no room for it, or as reading it failed
   */
  static Future<Buffer> read(HttpServerRequest in, BodyBudget.Claim claim, BufferOptions limits) {
    return read(in, claim, limits, Buffer::appendBuffer);
  }

  /**
   * As {@link #read(HttpServerRequest, BodyBudget.Claim, BufferOptions)}, each piece added to the
   * body by {@code append} (a test makes it fail).
   */
  static Future<Buffer> read(
      HttpServerRequest in,
      BodyBudget.Claim claim,
      BufferOptions limits,
      BiConsumer<Buffer, Buffer> append) {
    long max = limits.perRequest();
    long declared = declaredLength(in);
    if (declared > max) {
      return Future.failedFuture(tooLarge(limits));
    }
    if (declared > 0 && !claim.growTo(declared)) {
      return Future.failedFuture(noRoom(in, limits));
    }
    Promise<Buffer> done = Promise.promise();
    Buffer body = Buffer.buffer(declared > 0 ? (int) declared : 0);
    in.handler(
        chunk -> {
          try {
            long total = (long) body.length() + chunk.length();
            if (total > max) {
              fail(in, done, tooLarge(limits));
            } else if (!claim.growTo(total)) {
              fail(in, done, noRoom(in, limits));
            } else {
              append.accept(body, chunk);
            }
          } catch (Throwable e) { // NOSONAR an OutOfMemoryError too: the body is not whole
            fail(in, done, unreadable(e));
          }
        });
    in.exceptionHandler(e -> fail(in, done, e));
    in.endHandler(v -> done.tryComplete(body));
    in.resume();
    return done.future();
  }

  private static void fail(HttpServerRequest in, Promise<Buffer> done, Throwable failure) {
    if (done.tryFail(failure)) {
      // the rest is read and dropped: the end of the body must not complete anything now
      in.handler(chunk -> {});
      in.endHandler(null);
    }
  }

  /**
   * @return the {@code Content-Length}, or -1 if none (or not a number: the codec has refused
   *     those)
   */
  private static long declaredLength(HttpServerRequest in) {
    String length = in.getHeader(HttpHeaders.CONTENT_LENGTH);
    if (length == null || !length.trim().matches("\\d{1,18}")) {
      return -1;
    }
    return Long.parseLong(length.trim());
  }

  /** 413 naming the bound that applies: {@code proxy.buffered-max-body}, or the total if less. */
  static HttpError tooLarge(BufferOptions limits) {
    long max = limits.perRequest();
    return new HttpError(
        413,
        "request body over "
            + max
            + " bytes ("
            + Sizes.format(max)
            + ", "
            + (max == limits.maxBody() ? BufferOptions.MAX_BODY : BufferOptions.MAX_TOTAL).key()
            + "): a handler of this type reads it whole");
  }

  private static HttpError noRoom(HttpServerRequest in, BufferOptions limits) {
    if (!in.response().headWritten()) {
      in.response().putHeader("Retry-After", "1");
    }
    return HttpError.unavailable(
        "the bodies read whole on this node take all of its "
            + Sizes.format(limits.maxTotal())
            + " ("
            + BufferOptions.MAX_TOTAL.key()
            + "); retry later");
  }

  private static HttpError unreadable(Throwable e) {
    return HttpError.unavailable(
        "the request body could not be read whole ("
            + e.getClass().getSimpleName()
            + "); retry later");
  }
}
