package io.okapigw.core.admin;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.okapigw.core.cluster.ClusterBus;
import io.okapigw.core.server.Drain;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;

/**
 * The node itself: {@code /_/version}, {@code /_/proxy/health} (state, version, cluster, admin API
 * protection; 503 with status {@code DRAINING} once the node drains, so that a load balancer
 * checking it moves traffic first) and {@code /_/metrics} (Prometheus).
 */
final class NodeApi implements AdminRoutes {

  private final String version;
  private final ClusterBus bus;
  private final AdminExposure exposure;
  private final PrometheusMeterRegistry metrics;
  private final Drain drain;

  NodeApi(
      String version,
      ClusterBus bus,
      AdminExposure exposure,
      PrometheusMeterRegistry metrics,
      Drain drain) {
    this.drain = drain;
    this.version = version;
    this.bus = bus;
    this.exposure = exposure;
    this.metrics = metrics;
  }

  @Override
  public void mount(Router router) {
    router
        .get("/_/metrics")
        .handler(
            ctx ->
                ctx.response()
                    .putHeader("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
                    .end(metrics.scrape()));
    router
        .get("/_/version")
        .handler(ctx -> ctx.response().putHeader("Content-Type", "text/plain").end(version));
    router
        .get("/_/proxy/health")
        .handler(
            ctx ->
                ctx.response()
                    .setStatusCode(drain.draining() ? 503 : 200)
                    .putHeader("Content-Type", "application/json")
                    .end(
                        new JsonObject()
                            .put("status", drain.draining() ? "DRAINING" : "UP")
                            .put("version", version)
                            .put("node", bus.nodeId())
                            .put("members", bus.members().size())
                            .put("adminApi", exposure.toJson())
                            .encode()));
  }
}
