package io.okapigw.core.health;

import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Okapi's {@code healthPort} listener: {@code GET /readiness} 204 (it listens only once the node
 * serves), {@code GET /liveness} 204; another method 405, another path 404. {@code /liveness} says
 * whether the process is alive, its event loop answering: not whether the database or the cluster
 * is (Okapi's asks its tenant store, so that PostgreSQL away for a while made every node look dead
 * to Kubernetes at once, and restarting them all would have cost the traffic they went on serving
 * from memory). Neither does {@code /readiness} depend on the database: the registry is in memory
 * and proxied traffic needs none; a change while it is away gets a 503 naming it. Unlike Okapi,
 * whose readiness stays 204 until the process is gone, {@code /readiness} answers 503 once the node
 * drains, so that Kubernetes or a load balancer moves traffic first; and while the node's view of
 * its cluster is in doubt ({@link NodeReadiness}: cut off from its peers, merging after a split,
 * re-reading the registry after a change of members).
 */
public final class HealthListener {

  private HealthListener() {}

  /**
   * @param readiness whether the node is ready: else {@code /readiness} answers 503 saying why
   * @return what the listener serves; its connections are the node's listener's (read strictly,
   *     with the {@code server.*} timeouts and its limit on connections open at once)
   */
  public static Handler<HttpServerRequest> handler(Vertx vertx, NodeReadiness readiness) {
    Router router = Router.router(vertx);
    router.route(HttpMethod.GET, "/readiness").handler(ctx -> readiness(ctx, readiness));
    router.route(HttpMethod.GET, "/liveness").handler(HealthListener::noContent);
    return router;
  }

  private static void readiness(RoutingContext ctx, NodeReadiness readiness) {
    readiness
        .notReady()
        .ifPresentOrElse(
            why ->
                ctx.response().setStatusCode(503).putHeader("Content-Type", "text/plain").end(why),
            () -> noContent(ctx));
  }

  private static void noContent(RoutingContext ctx) {
    ctx.response().setStatusCode(204).end();
  }
}
