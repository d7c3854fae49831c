package io.okapigw.core.testing;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A module for stream tests, a real HTTP server serving under {@code /s/}:
 *
 * <ul>
 *   <li>{@code GET /s/ping}: 200 {@code pong};
 *   <li>{@code POST /s/echo}: reads the body, 200 {@code got N bytes};
 *   <li>{@code POST /s/upload}: 413 at once, body unread, when Content-Length is over {@link
 *       #UPLOAD_LIMIT} (as a body limit does); else as echo;
 *   <li>{@code GET /s/download?size=N}: 200 with N bytes, with back-pressure;
 *   <li>{@code POST /s/die-upload}: closes its connection at the first body bytes;
 *   <li>{@code GET /s/die-download?size=N}: declares N bytes, sends half, closes its connection;
 *   <li>{@code /s/hold}: kept open for the test to act on ({@link #nextHeld}): a body is read, a
 *       GET gets a head declaring {@link #HELD_LENGTH} bytes and the first 4.
 * </ul>
 */
public final class StreamModule implements AutoCloseable {

  public static final long UPLOAD_LIMIT = 64 * 1024;
  public static final int HELD_LENGTH = 10_000;
  private static final Buffer CHUNK = Buffer.buffer(new byte[16 * 1024]);

  private final TestModule module;
  private final BlockingQueue<Held> held = new LinkedBlockingQueue<>();

  private StreamModule(Vertx vertx) {
    module = TestModule.start(vertx, this::routes);
  }

  public static StreamModule start(Vertx vertx) {
    return new StreamModule(vertx);
  }

  public String url() {
    return module.url();
  }

  /**
   * @return the next request held at {@code /s/hold}; fails if none arrives in time
   */
  public Held nextHeld() {
    try {
      Held next = held.poll(RawClient.TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
      if (next == null) {
        throw new AssertionError("no request reached /s/hold");
      }
      return next;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  @Override
  public void close() {
    module.close();
  }

  private void routes(Router router) {
    router.get("/s/ping").handler(ctx -> ctx.response().end("pong"));
    router.post("/s/echo").handler(StreamModule::echo);
    router
        .post("/s/upload")
        .handler(
            ctx -> {
              String length = ctx.request().getHeader("Content-Length");
              if (length != null && Long.parseLong(length) > UPLOAD_LIMIT) {
                ctx.response().setStatusCode(413).end("body over " + UPLOAD_LIMIT + " bytes");
              } else {
                echo(ctx);
              }
            });
    router
        .get("/s/download")
        .handler(
            ctx -> {
              long size = Long.parseLong(ctx.request().getParam("size"));
              ctx.response().putHeader("Content-Length", Long.toString(size));
              download(ctx.response(), size);
            });
    router
        .post("/s/die-upload")
        .handler(
            ctx -> ctx.request().handler(chunk -> ctx.request().connection().close()).resume());
    router
        .get("/s/die-download")
        .handler(
            ctx -> {
              long size = Long.parseLong(ctx.request().getParam("size"));
              ctx.response()
                  .putHeader("Content-Length", Long.toString(size))
                  .write(Buffer.buffer(new byte[(int) size / 2]))
                  .onComplete(v -> ctx.request().connection().close());
            });
    router.route("/s/hold").handler(this::hold);
  }

  private static void echo(RoutingContext ctx) {
    ctx.request().body().onSuccess(body -> ctx.response().end("got " + body.length() + " bytes"));
  }

  private static void download(HttpServerResponse response, long left) {
    long rest = left;
    while (rest > 0 && !response.writeQueueFull()) {
      int n = (int) Math.min(rest, CHUNK.length());
      response.write(CHUNK.slice(0, n));
      rest -= n;
    }
    if (rest == 0) {
      response.end();
    } else {
      long next = rest;
      response.drainHandler(v -> download(response, next));
    }
  }

  private void hold(RoutingContext ctx) {
    HttpServerRequest request = ctx.request();
    Held h = new Held(request, new CompletableFuture<>(), new CompletableFuture<>());
    request.connection().closeHandler(v -> h.closed().complete(null));
    if (request.getHeader("Content-Length") != null) {
      request.handler(chunk -> h.data().complete(null)).resume();
    } else {
      ctx.response()
          .putHeader("Content-Length", Integer.toString(HELD_LENGTH))
          .write("part")
          .onComplete(v -> h.data().complete(null));
    }
    held.add(h);
  }

  /**
   * A request the module holds.
   *
   * @param data completes when the first body bytes arrived (or, for a GET, were sent)
   * @param closed completes when the module's connection closes
   */
  public record Held(
      HttpServerRequest request, CompletableFuture<Void> data, CompletableFuture<Void> closed) {

    /** Waits until the first body bytes came (or, for a GET, were sent). */
    public Held awaitData() {
      await(data, "no body bytes reached the module");
      return this;
    }

    /** Fails unless the module's connection closes in time. */
    public void awaitClosed() {
      await(
          closed,
          "the module's connection is still open after "
              + RawClient.TIMEOUT_MILLIS
              + " ms: the gateway left it running");
    }

    /** Closes the module's side of the connection, as a crashing module does. */
    public void closeConnection() {
      request.connection().close();
    }

    private static void await(CompletableFuture<Void> f, String message) {
      try {
        f.get(RawClient.TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        throw new AssertionError(message);
      } catch (ExecutionException e) {
        throw new AssertionError(e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }
}
