package io.okapigw.core.admin;

import static io.okapigw.core.admin.Replies.guarded;

import io.okapigw.core.cluster.ClusterBus;
import io.okapigw.core.http.HttpError;
import io.okapigw.core.registry.DeploymentDescriptor;
import io.okapigw.core.registry.Registry;
import io.vertx.core.Future;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code /_/discovery}: where each module's instances run ({@code modules}), whether they answer
 * ({@code health}), and the gateway nodes ({@code nodes}).
 */
final class DiscoveryApi {

  private static final String BASE = "/_/discovery/modules";
  private static final String HEALTH = "/_/discovery/health";
  private static final String NODES = "/_/discovery/nodes";

  private final Registry registry;
  private final ClusterBus bus;
  private final InstanceHealth health = new InstanceHealth(InstanceHealth.TIMEOUT);

  DiscoveryApi(Registry registry, ClusterBus bus) {
    this.registry = registry;
    this.bus = bus;
  }

  void mount(Router router) {
    router
        .post(BASE)
        .handler(
            guarded(
                ctx ->
                    Replies.created(
                        ctx,
                        registry
                            .addDeployment(Replies.jsonObject(ctx))
                            .map(DeploymentDescriptor::toJson),
                        json ->
                            BASE
                                + "/"
                                + json.getString("srvcId")
                                + "/"
                                + json.getString("instId"))));
    router
        .get(BASE)
        .handler(
            ctx ->
                Replies.okList(
                    ctx,
                    registry
                        .deployments(null)
                        .map(list -> list.stream().map(DeploymentDescriptor::toJson).toList())));
    router
        .get(BASE + "/:srvcId")
        .handler(
            ctx ->
                Replies.okList(
                    ctx,
                    registry
                        .deployments(ctx.pathParam("srvcId"))
                        .map(list -> list.stream().map(DeploymentDescriptor::toJson).toList())));
    router
        .get(BASE + "/:srvcId/:instId")
        .handler(ctx -> Replies.ok(ctx, instance(ctx).map(DeploymentDescriptor::toJson)));
    router
        .delete(BASE + "/:srvcId")
        .handler(
            ctx ->
                Replies.noContent(ctx, registry.deleteDeployments(ctx.pathParam("srvcId"), null)));
    router
        .delete(BASE + "/:srvcId/:instId")
        .handler(
            ctx ->
                Replies.noContent(
                    ctx,
                    registry.deleteDeployments(ctx.pathParam("srvcId"), ctx.pathParam("instId"))));
    mountHealth(router);
    router.get(NODES).handler(ctx -> Replies.okList(ctx, ClusterNodes.list(ctx.vertx(), bus)));
    router
        .get(NODES + "/:nodeId")
        .handler(
            ctx -> Replies.ok(ctx, ClusterNodes.find(ctx.vertx(), bus, ctx.pathParam("nodeId"))));
  }

  private void mountHealth(Router router) {
    router
        .get(HEALTH)
        .handler(
            ctx ->
                Replies.okList(
                    ctx,
                    registry.deployments(null).compose(all -> health.check(ctx.vertx(), all))));
    router
        .get(HEALTH + "/:srvcId")
        .handler(
            ctx ->
                Replies.okList(
                    ctx,
                    registry
                        .deployments(ctx.pathParam("srvcId"))
                        .compose(all -> health.check(ctx.vertx(), all))));
    router
        .get(HEALTH + "/:srvcId/:instId")
        .handler(ctx -> Replies.ok(ctx, instance(ctx).compose(d -> health.check(ctx.vertx(), d))));
  }

  /**
   * @return the instance the path names; 404 if none
   */
  private Future<DeploymentDescriptor> instance(RoutingContext ctx) {
    String srvcId = ctx.pathParam("srvcId");
    String instId = ctx.pathParam("instId");
    return registry
        .deployments(srvcId)
        .map(
            list ->
                list.stream()
                    .filter(d -> d.instId().equals(instId))
                    .findFirst()
                    .orElseThrow(
                        () -> HttpError.notFound("no deployment " + srvcId + "/" + instId)));
  }
}
