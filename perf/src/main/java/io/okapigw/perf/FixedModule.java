package io.okapigw.perf;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;

/**
 * A module that answers every request at once with the same body of a fixed size: the "direct"
 * side of the gateway-hop benchmark, and the handler behind the gateway.
 */
public final class FixedModule {

  private FixedModule() {
  }

  /**
   * @param port port to listen on (0 = any free port)
   * @param size body size in bytes
   * @return the server once listening
   */
  public static Future<HttpServer> start(Vertx vertx, int port, int size) {
    Buffer body = Buffer.buffer(new byte[size]);
    for (int i = 0; i < size; i++) {
      body.setByte(i, (byte) ('a' + i % 26));
    }
    return vertx.createHttpServer()
        .requestHandler(req -> req.response().putHeader("Content-Type", "text/plain").end(body))
        .listen(port, "127.0.0.1");
  }
}
