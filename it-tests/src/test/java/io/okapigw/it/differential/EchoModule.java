package io.okapigw.it.differential;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;

/**
 * The module instance both gateways route to: {@code /_/tenant...} answers 204 (every tenant
 * operation succeeds at once), anything else 200 with the method, path and query and tenant it got,
 * so a proxied step shows which path a gateway sent where.
 */
final class EchoModule {

  private final HttpServer server;

  private EchoModule(HttpServer server) {
    this.server = server;
  }

  /**
   * @return the module listening on a free loopback port
   */
  static Future<EchoModule> start(Vertx vertx) {
    return vertx
        .createHttpServer()
        .requestHandler(EchoModule::answer)
        .listen(0, "127.0.0.1")
        .map(EchoModule::new);
  }

  private static void answer(HttpServerRequest request) {
    request
        .body()
        .onComplete(
            body -> {
              if (request.path().startsWith("/_/tenant")) {
                request.response().setStatusCode(204).end();
                return;
              }
              request
                  .response()
                  .putHeader("Content-Type", "application/json")
                  .end(
                      new JsonObject()
                          .put("method", request.method().name())
                          .put("uri", request.uri())
                          .put("tenant", request.getHeader("X-Okapi-Tenant"))
                          .encode());
            });
  }

  /**
   * @return its base URL
   */
  String url() {
    return "http://127.0.0.1:" + server.actualPort();
  }

  Future<Void> close() {
    return server.close();
  }
}
