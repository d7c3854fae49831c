package io.okapigw.it.hostile;

import io.vertx.core.Context;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The module behind the gateway, in the test's JVM, well-behaved whatever the gateway forwards (so
 * any 5xx a client gets is the gateway's): every request it receives is recorded, its body read to
 * the end, and answered.
 *
 * <ul>
 *   <li>{@code GET /s/ping}: 200 {@code pong};
 *   <li>{@code /s/upload}: 413 at once, body unread, when Content-Length is over {@link
 *       #UPLOAD_LIMIT} (as a body limit does);
 *   <li>{@code /s/hold}: held for the test ({@link #nextHeld}), its body read;
 *   <li>{@code GET /secure/...} (needs permission {@code secure.get}): 200 {@code secret} and the
 *       user id the gateway passed;
 *   <li>{@code GET /s/download}: 200 and a chunked body that never ends, written with
 *       back-pressure, until the connection closes ({@link #nextDownload});
 *   <li>anything else: the body read, 200 {@code got N bytes}.
 * </ul>
 *
 * Its limits on request lines and headers are above the gateway's, so that whatever the gateway
 * forwards is read.
 */
final class Backend implements AutoCloseable {

  static final long UPLOAD_LIMIT = 64 * 1024;
  private static final Buffer PIECE = Buffer.buffer(new byte[16 * 1024]);

  private final Vertx vertx;
  private final HttpServer server;
  private final Queue<Recorded> recorded = new ConcurrentLinkedQueue<>();
  private final Map<String, Recorded> byFuzzId = new ConcurrentHashMap<>();
  private final BlockingQueue<Held> held = new LinkedBlockingQueue<>();
  private final BlockingQueue<Held> downloads = new LinkedBlockingQueue<>();

  private Backend(Vertx vertx) {
    this.vertx = vertx;
    server =
        vertx
            .createHttpServer(
                new HttpServerOptions().setMaxInitialLineLength(1 << 20).setMaxHeaderSize(1 << 20))
            .requestHandler(this::handle)
            .listen(0, "127.0.0.1")
            .await();
  }

  static Backend start(Vertx vertx) {
    return new Backend(vertx);
  }

  String url() {
    return "http://127.0.0.1:" + server.actualPort();
  }

  private void handle(HttpServerRequest req) {
    String fuzz = req.getHeader(FuzzRequest.ID_HEADER);
    Recorded r =
        new Recorded(
            req.method().name(),
            req.uri(),
            fuzz == null ? null : fuzz.trim().split("\\s", 2)[0],
            new AtomicBoolean(),
            MultiMap.caseInsensitiveMultiMap().addAll(req.headers()));
    recorded.add(r);
    if (r.fuzz() != null) {
      byFuzzId.put(r.fuzz(), r);
    }
    req.endHandler(v -> r.ended().set(true));
    req.exceptionHandler(e -> {}); // the gateway giving a request up is not the module's failure
    String path = req.path();
    String length = req.getHeader("Content-Length");
    if (path.equals("/s/ping")) {
      req.response().end("pong");
    } else if (path.equals("/s/upload")
        && length != null
        && Long.parseLong(length) > UPLOAD_LIMIT) {
      req.response().setStatusCode(413).end("body over " + UPLOAD_LIMIT + " bytes");
    } else if (path.equals("/s/hold")) {
      Held h = new Held(new CompletableFuture<>());
      req.connection().closeHandler(v -> h.closed().complete(null));
      req.handler(chunk -> {});
      held.add(h);
    } else if (path.equals("/s/download")) {
      Held h = new Held(new CompletableFuture<>());
      req.connection().closeHandler(v -> h.closed().complete(null));
      downloads.add(h);
      HttpServerResponse response = req.response().setChunked(true);
      response.exceptionHandler(e -> {});
      writeUntilClosed(vertx.getOrCreateContext(), response);
    } else if (path.startsWith("/secure/")) {
      req.response().end("secret for " + req.getHeader("X-Okapi-User-Id"));
    } else {
      long[] bytes = {0};
      req.handler(chunk -> bytes[0] += chunk.length());
      req.endHandler(
          v -> {
            r.ended().set(true);
            req.response().end("got " + bytes[0] + " bytes");
          });
    }
  }

  /**
   * Writes 16 KiB pieces for as long as the connection is open, each once the one before is
   * written: as fast as the client takes them.
   */
  private static void writeUntilClosed(Context context, HttpServerResponse response) {
    if (!response.closed()) {
      response
          .write(PIECE.copy())
          .onSuccess(v -> context.runOnContext(x -> writeUntilClosed(context, response)));
    }
  }

  /**
   * @return the requests received since the last call, oldest first
   */
  List<Recorded> drain() {
    List<Recorded> all = new ArrayList<>();
    for (Recorded r; (r = recorded.poll()) != null; ) {
      all.add(r);
    }
    return all;
  }

  /**
   * @return the request whose {@link FuzzRequest#ID_HEADER} was {@code id}, or null if none came
   */
  Recorded fuzzed(String id) {
    return byFuzzId.get(id);
  }

  /**
   * @return the requests of the fuzz run received so far
   */
  Collection<Recorded> fuzzed() {
    return byFuzzId.values();
  }

  /**
   * @return the next request held at {@code /s/hold}; fails if none arrives within {@link
   *     HostileGateway#ANSWER_BOUND}
   */
  Held nextHeld() throws InterruptedException {
    return next(held, "/s/hold");
  }

  /**
   * @return the next request to {@code /s/download}; fails if none arrives within {@link
   *     HostileGateway#ANSWER_BOUND}
   */
  Held nextDownload() throws InterruptedException {
    return next(downloads, "/s/download");
  }

  private static Held next(BlockingQueue<Held> queue, String path) throws InterruptedException {
    Held next = queue.poll(HostileGateway.ANSWER_BOUND.toMillis(), TimeUnit.MILLISECONDS);
    if (next == null) {
      throw new AssertionError("no request reached " + path);
    }
    return next;
  }

  @Override
  public void close() {
    server.close().await();
  }

  /**
   * A request as the module received it.
   *
   * @param fuzz the first word of its {@link FuzzRequest#ID_HEADER} header (the fuzz run's request
   *     number), or null
   * @param ended set once its body has come to its end
   * @param headers its headers
   */
  record Recorded(String method, String uri, String fuzz, AtomicBoolean ended, MultiMap headers) {
    String path() {
      int q = uri.indexOf('?');
      return q < 0 ? uri : uri.substring(0, q);
    }

    /**
     * @return every value of header {@code name}, in order
     */
    List<String> header(String name) {
      return headers.getAll(name);
    }
  }

  /**
   * A request held at {@code /s/hold}, or a download under way; {@code closed} completes when its
   * connection closes.
   */
  record Held(CompletableFuture<Void> closed) {}
}
