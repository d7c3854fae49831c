package io.okapigw.core.admin;

import static io.okapigw.core.admin.Replies.guarded;

import io.okapigw.core.cluster.ClusterBus;
import io.okapigw.core.cluster.ClusterNodes;
import io.okapigw.core.deployment.DeploymentRequest;
import io.okapigw.core.deployment.Deployments;
import io.okapigw.core.http.HttpError;
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

  private final Discovery discovery;
  private final ClusterBus bus;
  private final InstanceHealth health;
  private final Deployments deployments;

  DiscoveryApi(Registry registry, ClusterBus bus, InstanceHealth health, Deployments deployments) {
    this.discovery = registry.discovery();
    this.bus = bus;
    this.health = health;
    this.deployments = deployments;
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
    router.put(BASE + "/:srvcId/:instId").handler(guarded(this::replace));
    router.delete(BASE).handler(ctx -> Replies.noContent(ctx, deployments.remove(null, null)));
    router
        .delete(BASE + "/:srvcId")
        .handler(ctx -> Replies.noContent(ctx, deployments.remove(ctx.pathParam("srvcId"), null)));
    router
        .delete(BASE + "/:srvcId/:instId")
        .handler(
            ctx ->
                Replies.noContent(
                    ctx, deployments.remove(ctx.pathParam("srvcId"), ctx.pathParam("instId"))));
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

  /**
   * 201 with the instance and Okapi's Location ({@code BASE/srvcId/instId}, ids encoded): with a
   * {@code nodeId}, deployed on that node (from the posted {@code descriptor}, else the module's
   * {@code launchDescriptor}); without, registered at its {@code url}.
   */
  private void add(RoutingContext ctx) {
    JsonObject json = Replies.jsonObject(ctx);
    Future<DeploymentDescriptor> added;
    if (json.getValue("nodeId") != null) {
      added = deployments.deployOn(DeploymentRequest.fromJson(json));
    } else if (json.getValue("descriptor") != null && json.getValue("srvcId") != null) {
      throw HttpError.badRequest("deployment: a descriptor needs a nodeId");
    } else {
      added = discovery.add(json);
    }
    Replies.created(
        ctx,
        added.map(DeploymentDescriptor::toJson),
        d -> Replies.location(BASE, d.getString("srvcId"), d.getString("instId")));
  }

  /**
   * Okapi declares {@code PUT BASE/srvcId/instId} and serves nothing there (500); here it moves an
   * instance registered by URL to the URL posted ({@code {srvcId, instId, url}}, the ids those of
   * the path). A deployed instance is refused: its node owns its URL.
   */
  private void replace(RoutingContext ctx) {
    String srvcId = ctx.pathParam("srvcId");
    String instId = ctx.pathParam("instId");
    DeploymentDescriptor posted = DeploymentDescriptor.fromJson(Replies.jsonObject(ctx));
    if (!posted.srvcId().equals(srvcId) || !posted.instId().equals(instId)) {
      throw HttpError.badRequest(
          "deployment: srvcId and instId of the body must be those of the path ("
              + srvcId
              + ", "
              + instId
              + ")");
    }
    Replies.ok(
        ctx,
        discovery
            .instance(srvcId, instId)
            .compose(
                old -> {
                  if (old.deployed()) {
                    throw HttpError.badRequest(
                        "deployment "
                            + srvcId
                            + "/"
                            + instId
                            + " was started by node "
                            + old.nodeId()
                            + ": its URL cannot be changed (undeploy it and deploy again)");
                  }
                  return discovery.replace(posted);
                })
            .map(DeploymentDescriptor::toJson));
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
