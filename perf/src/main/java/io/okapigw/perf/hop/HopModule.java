package io.okapigw.perf.hop;

import io.okapigw.config.Settings;
import io.okapigw.perf.kit.modules.ModuleProcess;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;

/**
 * The module behind every proxy of the hop comparison: {@code GET /hop/{bytes}} answers that many
 * bytes with {@code Content-Length}. Up to {@value #CHUNK} bytes go in one write of a body made
 * once; larger bodies are written as slices of one {@value #CHUNK}-byte buffer with back-pressure,
 * so a 16 MB answer holds one chunk. Anything else: 404.
 *
 * <p>{@code java -cp perf-fat.jar io.okapigw.perf.hop.HopModule --port P [--instances 2]}
 */
public final class HopModule {

  /** Path prefix of the one handler. */
  public static final String PREFIX = "/hop/";

  static final int CHUNK = 64 * 1024;
  private static final long MAX_SIZE = 1L << 32;
  private static final Buffer PATTERN = pattern();

  private HopModule() {}

  public static void main(String[] args) {
    Settings settings = ProcessArgs.read(args);
    int port = settings.get(ProcessArgs.PORT);
    ModuleProcess.serve(
        "hop module on 127.0.0.1:" + port,
        settings.get(ProcessArgs.INSTANCES),
        vertx -> HopModule.start(vertx, port));
  }

  /**
   * @param port port on 127.0.0.1 (0 = any free port)
   * @return the server once listening
   */
  public static Future<HttpServer> start(Vertx vertx, int port) {
    return vertx.createHttpServer().requestHandler(HopModule::handle).listen(port, "127.0.0.1");
  }

  private static void handle(HttpServerRequest request) {
    long size = size(request.path());
    HttpServerResponse response = request.response();
    if (size < 0) {
      response.setStatusCode(404).end("GET /hop/{bytes}");
      return;
    }
    response
        .putHeader("Content-Type", "application/octet-stream")
        .putHeader("Content-Length", Long.toString(size));
    if (size <= CHUNK) {
      response.end(PATTERN.slice(0, (int) size));
    } else {
      new Writer(response, size).run();
    }
  }

  /**
   * @return the size the path asks for, or -1 if it is not {@code /hop/{bytes}} within the limit
   */
  static long size(String path) {
    if (!path.startsWith(PREFIX) || path.length() == PREFIX.length() || path.length() > 20) {
      return -1;
    }
    long size = 0;
    for (int i = PREFIX.length(); i < path.length(); i++) {
      char c = path.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      size = size * 10 + (c - '0');
    }
    return size <= MAX_SIZE ? size : -1;
  }

  /** Writes a large body chunk by chunk while the connection takes it. */
  private static final class Writer implements Runnable {
    private final HttpServerResponse response;
    private long left;

    Writer(HttpServerResponse response, long size) {
      this.response = response;
      this.left = size;
      response.drainHandler(v -> run());
    }

    @Override
    public void run() {
      while (left > 0 && !response.writeQueueFull() && !response.closed()) {
        int n = (int) Math.min(CHUNK, left);
        left -= n;
        if (left == 0) {
          response.end(PATTERN.slice(0, n));
        } else {
          response.write(PATTERN.slice(0, n));
        }
      }
    }
  }

  private static Buffer pattern() {
    byte[] bytes = new byte[CHUNK];
    for (int i = 0; i < CHUNK; i++) {
      bytes[i] = (byte) ('a' + i % 26);
    }
    return Buffer.buffer(bytes);
  }
}
