package io.okapigw.core.admin;

import static io.okapigw.core.admin.Replies.guarded;

import io.okapigw.core.cluster.ClusterBus;
import io.okapigw.core.registry.DeploymentDescriptor;
import io.okapigw.core.registry.Discovery;
import io.okapigw.core.registry.Registry;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.List;

/**
 * {@code /_/discovery}: where each module's instances run ({@code modules}), whether they answer
 * ({@code health}), and the gateway nodes ({@code nodes}).
 */
final class DiscoveryApi implements AdminRoutes {

  private static final String BASE = "/_/discovery/modules";
  private static final String HEALTH = "/_/discovery/health";
  private static final String NODES = "/_/discovery/nodes";

  private final Registry registry;
  private final Discovery discovery;
  private final ClusterBus bus;
  private final InstanceHealth health;

  DiscoveryApi(Registry registry, ClusterBus bus, InstanceHealth health) {
    this.registry = registry;
    this.discovery = registry.discovery();
    this.bus = bus;
    this.health = health;
  }

  @Override
  public void mount(Router router) {
    router.post(BASE).handler(guarded(this::add));
    router.get(BASE).handler(ctx -> Replies.okList(ctx, json(discovery.instances(null))));
    router
        .get(BASE + "/:srvcId")
        .handler(ctx -> Replies.okList(ctx, json(discovery.instances(ctx.pathParam("srvcId")))));
    router
        .get(BASE + "/:srvcId/:instId")
        .handler(ctx -> Replies.ok(ctx, instance(ctx).map(DeploymentDescriptor::toJson)));
    router.delete(BASE).handler(ctx -> Replies.noContent(ctx, discovery.removeAll()));
    router
        .delete(BASE + "/:srvcId")
        .handler(ctx -> Replies.noContent(ctx, discovery.remove(ctx.pathParam("srvcId"), null)));
    router
        .delete(BASE + "/:srvcId/:instId")
        .handler(
            ctx ->
                Replies.noContent(
                    ctx, discovery.remove(ctx.pathParam("srvcId"), ctx.pathParam("instId"))));
    mountHealth(router);
    router.get(NODES).handler(ctx -> Replies.okList(ctx, ClusterNodes.list(ctx.vertx(), bus)));
    router
        .get(NODES + "/:nodeId")
        .handler(
            ctx -> Replies.ok(ctx, ClusterNodes.find(ctx.vertx(), bus, ctx.pathParam("nodeId"))));
    router
        .put(NODES + "/:nodeId")
        .handler(
            guarded(
                ctx ->
                    Replies.ok(
                        ctx,
                        ClusterNodes.update(
                            ctx.vertx(), bus, ctx.pathParam("nodeId"), Replies.jsonObject(ctx)))));
  }

  /** 201 with the instance and Okapi's Location ({@code BASE/srvcId/instId}, ids encoded). */
  private void add(RoutingContext ctx) {
    JsonObject json = Replies.jsonObject(ctx);
    Replies.created(
        ctx,
        NodeDeployment.refuse(ctx.vertx(), bus, registry, json)
            .compose(v -> discovery.add(json))
            .map(DeploymentDescriptor::toJson),
        added -> Replies.location(BASE, added.getString("srvcId"), added.getString("instId")));
  }

  /**
   * Okapi's health checks; with {@code ?learned=true}, each instance also says what this node has
   * learned of it from its calls ({@link InstanceHealth#learned}), a field Okapi's answer lacks.
   */
  private void mountHealth(Router router) {
    router.get(HEALTH).handler(ctx -> Replies.okList(ctx, checked(ctx, discovery.instances(null))));
    router
        .get(HEALTH + "/:srvcId")
        .handler(
            ctx -> Replies.okList(ctx, checked(ctx, discovery.instances(ctx.pathParam("srvcId")))));
    router
        .get(HEALTH + "/:srvcId/:instId")
        .handler(
            ctx ->
                Replies.ok(
                    ctx,
                    learned(ctx)
                        .compose(learned -> instance(ctx).compose(d -> health.check(d, learned)))));
  }

  private Future<List<JsonObject>> checked(
      RoutingContext ctx, Future<List<DeploymentDescriptor>> instances) {
    return learned(ctx).compose(learned -> instances.compose(all -> health.check(all, learned)));
  }

  /** {@code ?learned=true|false}; fails with 400 for another value. */
  private static Future<Boolean> learned(RoutingContext ctx) {
    try {
      return Future.succeededFuture(QueryParams.bool(ctx.queryParams(), "learned", false));
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
  }

  private Future<DeploymentDescriptor> instance(RoutingContext ctx) {
    return discovery.instance(ctx.pathParam("srvcId"), ctx.pathParam("instId"));
  }

  private static Future<List<JsonObject>> json(Future<List<DeploymentDescriptor>> instances) {
    return instances.map(list -> list.stream().map(DeploymentDescriptor::toJson).toList());
  }
}
