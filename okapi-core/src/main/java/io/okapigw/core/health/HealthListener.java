package io.okapigw.core.health;

import io.okapigw.core.registry.Registry;
import io.okapigw.core.server.ClientConnections;
import io.okapigw.core.server.Drain;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Okapi's {@code healthPort} listener, answering as Okapi 6.1.5 and 7.0.x do: {@code GET
 * /readiness} 204 (it listens only once the node serves), {@code GET /liveness} 204 while the
 * registry answers, else 500 with the reason as text; another method 405, another path 404. Unlike
 * Okapi, whose readiness stays 204 until the process is gone, {@code /readiness} answers 503 once
 * the node drains ({@link Drain}), so that Kubernetes or a load balancer moves traffic first.
 */
public final class HealthListener {

  private static final Logger log = LoggerFactory.getLogger(HealthListener.class);

  private HealthListener() {}

  /**
   * @param connections the listener's client connections: read strictly, with the {@code server.*}
   *     timeouts and its limit on connections open at once, as every listener's
   * @param host the interface to listen on
   * @param port the port ({@code healthPort})
   * @param registry asked for its tenants on every {@code /liveness} (Okapi asks its tenant store)
   * @param drain whether the node drains: then {@code /readiness} answers 503
   * @return the server, once it listens
   */
  public static Future<HttpServer> start(
      Vertx vertx,
      ClientConnections connections,
      String host,
      int port,
      Registry registry,
      Drain drain) {
    Router router = Router.router(vertx);
    router.route(HttpMethod.GET, "/readiness").handler(ctx -> readiness(ctx, drain));
    router.route(HttpMethod.GET, "/liveness").handler(ctx -> liveness(ctx, registry));
    return connections.server(router).listen(port, host);
  }

  private static void liveness(RoutingContext ctx, Registry registry) {
    registry
        .tenants()
        .onSuccess(tenants -> noContent(ctx))
        .onFailure(
            e -> {
              log.warn("liveness failure: {}", e.getMessage());
              ctx.response()
                  .setStatusCode(500)
                  .putHeader("Content-Type", "text/plain")
                  .end(String.valueOf(e.getMessage()));
            });
  }

  private static void readiness(RoutingContext ctx, Drain drain) {
    if (drain.draining()) {
      ctx.response()
          .setStatusCode(503)
          .putHeader("Content-Type", "text/plain")
          .end("draining: this node is shutting down");
    } else {
      noContent(ctx);
    }
  }

  private static void noContent(RoutingContext ctx) {
    ctx.response().setStatusCode(204).end();
  }
}
