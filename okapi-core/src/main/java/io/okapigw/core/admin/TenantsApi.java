package io.okapigw.core.admin;

import static io.okapigw.core.admin.Replies.guarded;

import io.okapigw.core.http.HttpError;
import io.okapigw.core.registry.Registry;
import io.okapigw.core.registry.TenantDescriptor;
import io.okapigw.core.registry.TenantModules;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/** {@code /_/proxy/tenants}, the modules enabled for each tenant and their interfaces. */
final class TenantsApi {

  private final Registry registry;
  private final TenantModules modules;

  TenantsApi(Registry registry) {
    this.registry = registry;
    this.modules = registry.tenantModules();
  }

  void mount(Router router) {
    router.post("/_/proxy/tenants").handler(guarded(ctx -> Replies.created(ctx,
        registry.addTenant(Replies.jsonObject(ctx)).map(TenantDescriptor::toJson),
        json -> "/_/proxy/tenants/" + json.getString("id"))));
    router.get("/_/proxy/tenants").handler(ctx -> Replies.okList(ctx,
        registry.tenants().map(list -> list.stream().map(TenantDescriptor::toJson).toList())));
    router.get("/_/proxy/tenants/:tid").handler(ctx -> Replies.ok(ctx,
        registry.tenant(ctx.pathParam("tid")).map(TenantDescriptor::toJson)));
    // as Okapi: 200 whether the tenant was replaced or created
    router.put("/_/proxy/tenants/:tid").handler(guarded(ctx -> Replies.ok(ctx,
        registry.putTenant(ctx.pathParam("tid"), Replies.jsonObject(ctx))
            .map(TenantDescriptor::toJson))));
    router.delete("/_/proxy/tenants/:tid").handler(ctx -> Replies.noContent(ctx,
        registry.deleteTenant(ctx.pathParam("tid"))));
    mountEnablement(router);
    new TenantInterfacesApi(modules).mount(router);
  }

  private void mountEnablement(Router router) {
    router.post("/_/proxy/tenants/:tid/modules").handler(guarded(this::enable));
    router.get("/_/proxy/tenants/:tid/modules").handler(ctx -> Replies.okList(ctx,
        modules.enabled(ctx.pathParam("tid"))
            .map(list -> list.stream().map(m -> idJson(m.id())).toList())));
    router.get("/_/proxy/tenants/:tid/modules/:mid").handler(ctx -> Replies.ok(ctx,
        modules.enabled(ctx.pathParam("tid")).map(list -> list.stream()
            .filter(m -> m.id().equals(ctx.pathParam("mid"))).findFirst()
            .map(m -> idJson(m.id()))
            .orElseThrow(() -> HttpError.notFound("module " + ctx.pathParam("mid")
                + " is not enabled for tenant " + ctx.pathParam("tid"))))));
    router.delete("/_/proxy/tenants/:tid/modules/:mid").handler(ctx -> Replies.noContent(ctx,
        modules.disable(ctx.pathParam("tid"), ctx.pathParam("mid"))));
  }

  private void enable(RoutingContext ctx) {
    String tenant = ctx.pathParam("tid");
    Object id = Replies.jsonObject(ctx).getValue("id");
    if (id != null && !(id instanceof String)) {
      throw HttpError.badRequest("enable: id must be a string");
    }
    Replies.created(ctx, modules.enable(tenant, (String) id).map(m -> idJson(m.id())),
        json -> "/_/proxy/tenants/" + tenant + "/modules/" + json.getString("id"));
  }

  private static JsonObject idJson(String id) {
    return new JsonObject().put("id", id);
  }
}
