package io.okapigw.core.admin;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.okapigw.core.cluster.ClusterBus;
import io.okapigw.core.health.NodeReadiness;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;

/**
 * The node itself: {@code /_/version}, {@code /_/proxy/health} (state, version, cluster, admin API
 * protection; 503 with status {@code DRAINING} once the node drains, {@code NOT_READY} and a {@code
 * reason} while its view of the cluster is in doubt, so that a load balancer checking it moves
 * traffic elsewhere) and {@code /_/metrics} (Prometheus).
 */
final class NodeApi implements AdminRoutes {

  private final String version;
  private final ClusterBus bus;
  private final AdminExposure exposure;
  private final PrometheusMeterRegistry metrics;
  private final NodeReadiness readiness;

  NodeApi(
      String version,
      ClusterBus bus,
      AdminExposure exposure,
      PrometheusMeterRegistry metrics,
      NodeReadiness readiness) {
    this.readiness = readiness;
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
            ctx -> {
              NodeReadiness.Status status = readiness.status();
              JsonObject health =
                  new JsonObject()
                      .put("status", status.name())
                      .put("version", version)
                      .put("node", bus.nodeId())
                      .put("members", bus.members().size())
                      .put("adminApi", exposure.toJson());
              readiness.notReady().ifPresent(why -> health.put("reason", why));
              ctx.response()
                  .setStatusCode(status == NodeReadiness.Status.UP ? 200 : 503)
                  .putHeader("Content-Type", "application/json")
                  .end(health.encode());
            });
  }
}
