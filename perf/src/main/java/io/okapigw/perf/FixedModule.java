package io.okapigw.perf;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import java.time.Duration;

/**
 * A module that answers every request with the same body of a fixed size, at once or after a fixed
 * delay: the "direct" side of the gateway-hop benchmark, the handler behind the gateway, and the
 * artificially slow handler of the parallel-auth benchmark.
 */
public final class FixedModule {

  private FixedModule() {}

  /**
   * Answers at once.
   *
   * @param port port to listen on (0 = any free port)
   * @param size body size in bytes
   * @return the server once listening
   */
  public static Future<HttpServer> start(Vertx vertx, int port, int size) {
    return start(vertx, port, size, Duration.ZERO);
  }

  /**
   * Answers each request {@code delay} after it arrived (a Vert.x timer: the event loop is free
   * meanwhile, so concurrent requests wait in parallel).
   *
   * @param port port to listen on (0 = any free port)
   * @param size body size in bytes
   * @param delay time before answering; zero answers at once (millisecond resolution)
   * @return the server once listening
   * @throws IllegalArgumentException if {@code delay} is negative
   */
  public static Future<HttpServer> start(Vertx vertx, int port, int size, Duration delay) {
    if (delay.isNegative()) {
      throw new IllegalArgumentException("delay must be >= 0, was " + delay);
    }
    Buffer body = Buffer.buffer(new byte[size]);
    for (int i = 0; i < size; i++) {
      body.setByte(i, (byte) ('a' + i % 26));
    }
    long delayMillis = delay.toMillis();
    return vertx
        .createHttpServer()
        .requestHandler(
            req -> {
              if (delayMillis == 0) {
                answer(req, body);
              } else {
                vertx.setTimer(delayMillis, id -> answer(req, body));
              }
            })
        .listen(port, "127.0.0.1");
  }

  private static void answer(HttpServerRequest req, Buffer body) {
    if (!req.response().closed()) {
      req.response().putHeader("Content-Type", "text/plain").end(body);
    }
  }
}
