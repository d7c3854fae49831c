package io.okapigw.core.admin;

import static io.okapigw.core.admin.Replies.guarded;

import io.okapigw.core.deployment.DeploymentRequest;
import io.okapigw.core.deployment.EnvEntry;
import io.okapigw.core.deployment.Environment;
import io.okapigw.core.deployment.NodeDeployer;
import io.okapigw.core.registry.DeploymentDescriptor;
import io.vertx.core.Future;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Okapi's {@code /_/deployment/modules} (the modules this node started: POST starts one here, GET
 * lists them or shows one, DELETE stops one) and {@code /_/env} (the variables deployed modules
 * get: POST sets one, GET lists them or shows one, DELETE removes one).
 */
final class DeploymentApi implements AdminRoutes {

  private static final String DEPLOYMENT = "/_/deployment/modules";
  private static final String ENV = "/_/env";

  private final NodeDeployer node;
  private final Environment environment;

  DeploymentApi(NodeDeployer node, Environment environment) {
    this.node = node;
    this.environment = environment;
  }

  @Override
  public void mount(Router router) {
    router.post(DEPLOYMENT).handler(guarded(this::deploy));
    router
        .get(DEPLOYMENT)
        .handler(
            ctx ->
                Replies.okList(
                    ctx,
                    Future.succeededFuture(
                        node.list().stream().map(DeploymentDescriptor::toJson).toList())));
    router
        .get(DEPLOYMENT + "/:instId")
        .handler(
            ctx ->
                Replies.ok(
                    ctx, node.get(ctx.pathParam("instId")).map(DeploymentDescriptor::toJson)));
    router
        .delete(DEPLOYMENT + "/:instId")
        .handler(ctx -> Replies.noContent(ctx, node.undeploy(ctx.pathParam("instId"))));
    router.post(ENV).handler(guarded(this::setEnv));
    router
        .get(ENV)
        .handler(
            ctx ->
                Replies.okList(
                    ctx, environment.list().map(l -> l.stream().map(EnvEntry::toJson).toList())));
    router
        .get(ENV + "/:name")
        .handler(
            ctx -> Replies.ok(ctx, environment.get(ctx.pathParam("name")).map(EnvEntry::toJson)));
    router
        .delete(ENV + "/:name")
        .handler(ctx -> Replies.noContent(ctx, environment.delete(ctx.pathParam("name"))));
  }

  /** 201 with the instance and Okapi's Location ({@code /_/deployment/modules/instId}). */
  private void deploy(RoutingContext ctx) {
    DeploymentRequest request = DeploymentRequest.fromJson(Replies.jsonObject(ctx));
    Replies.created(
        ctx,
        node.deploy(request).map(DeploymentDescriptor::toJson),
        json -> Replies.location(DEPLOYMENT, json.getString("instId")));
  }

  /** 201 with the entry and Okapi's Location ({@code /_/env/name}). */
  private void setEnv(RoutingContext ctx) {
    Replies.created(
        ctx,
        environment.put(Replies.jsonObject(ctx)).map(EnvEntry::toJson),
        json -> Replies.location(ENV, json.getString("name")));
  }
}
