package io.okapigw.core.admin;

import static io.okapigw.core.admin.Replies.guarded;

import io.okapigw.core.http.HttpError;
import io.okapigw.core.registry.DeploymentDescriptor;
import io.okapigw.core.registry.Registry;
import io.vertx.ext.web.Router;

/** {@code /_/discovery/modules}: where each module's instances run. */
final class DiscoveryApi {

  private static final String BASE = "/_/discovery/modules";

  private final Registry registry;

  DiscoveryApi(Registry registry) {
    this.registry = registry;
  }

  void mount(Router router) {
    router.post(BASE).handler(guarded(ctx -> Replies.created(ctx,
        registry.addDeployment(Replies.jsonObject(ctx)).map(DeploymentDescriptor::toJson),
        json -> BASE + "/" + json.getString("srvcId") + "/" + json.getString("instId"))));
    router.get(BASE).handler(ctx -> Replies.okList(ctx, registry.deployments(null)
        .map(list -> list.stream().map(DeploymentDescriptor::toJson).toList())));
    router.get(BASE + "/:srvcId").handler(ctx -> Replies.okList(ctx,
        registry.deployments(ctx.pathParam("srvcId"))
            .map(list -> list.stream().map(DeploymentDescriptor::toJson).toList())));
    router.get(BASE + "/:srvcId/:instId").handler(ctx -> Replies.ok(ctx,
        registry.deployments(ctx.pathParam("srvcId")).map(list -> list.stream()
            .filter(d -> d.instId().equals(ctx.pathParam("instId"))).findFirst()
            .map(DeploymentDescriptor::toJson)
            .orElseThrow(() -> HttpError.notFound("no deployment " + ctx.pathParam("srvcId")
                + "/" + ctx.pathParam("instId"))))));
    router.delete(BASE + "/:srvcId").handler(ctx -> Replies.noContent(ctx,
        registry.deleteDeployments(ctx.pathParam("srvcId"), null)));
    router.delete(BASE + "/:srvcId/:instId").handler(ctx -> Replies.noContent(ctx,
        registry.deleteDeployments(ctx.pathParam("srvcId"), ctx.pathParam("instId"))));
  }
}
