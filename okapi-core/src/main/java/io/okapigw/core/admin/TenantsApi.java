package io.okapigw.core.admin;

import static io.okapigw.core.admin.Replies.guarded;

import io.okapigw.core.http.HttpError;
import io.okapigw.core.install.InstallOptions;
import io.okapigw.core.install.Installer;
import io.okapigw.core.registry.Registry;
import io.okapigw.core.registry.TenantDescriptor;
import io.okapigw.core.registry.TenantModules;
import io.okapigw.core.server.IdleTimeouts;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/** {@code /_/proxy/tenants}, the modules enabled for each tenant and their interfaces. */
final class TenantsApi implements AdminRoutes {

  private final Registry registry;
  private final TenantModules modules;
  private final Installer installer;

  TenantsApi(Registry registry, Installer installer) {
    this.registry = registry;
    this.modules = registry.tenantModules();
    this.installer = installer;
  }

  @Override
  public void mount(Router router) {
    router
        .post("/_/proxy/tenants")
        .handler(
            guarded(
                ctx ->
                    Replies.created(
                        ctx,
                        registry.addTenant(Replies.jsonObject(ctx)).map(TenantDescriptor::toJson),
                        json -> Replies.location("/_/proxy/tenants", json.getString("id")))));
    router
        .get("/_/proxy/tenants")
        .handler(
            ctx ->
                Replies.okList(
                    ctx,
                    registry
                        .tenants()
                        .map(list -> list.stream().map(TenantDescriptor::toJson).toList())));
    router
        .get("/_/proxy/tenants/:tid")
        .handler(
            ctx ->
                Replies.ok(
                    ctx, registry.tenant(ctx.pathParam("tid")).map(TenantDescriptor::toJson)));
    // as Okapi: 200 whether the tenant was replaced or created
    router
        .put("/_/proxy/tenants/:tid")
        .handler(
            guarded(
                ctx ->
                    Replies.ok(
                        ctx,
                        registry
                            .putTenant(ctx.pathParam("tid"), Replies.jsonObject(ctx))
                            .map(TenantDescriptor::toJson))));
    router
        .delete("/_/proxy/tenants/:tid")
        .handler(ctx -> Replies.noContent(ctx, registry.deleteTenant(ctx.pathParam("tid"))));
    mountEnablement(router);
    new TenantInterfacesApi(modules).mount(router);
    new InstallApi(installer).mount(router);
  }

  private void mountEnablement(Router router) {
    router.post("/_/proxy/tenants/:tid/modules").handler(guarded(this::enable));
    router
        .get("/_/proxy/tenants/:tid/modules")
        .handler(
            guarded(
                ctx ->
                    ModuleListQuery.forTenant(ctx.request().params())
                        .reply(ctx, modules.enabled(ctx.pathParam("tid")))));
    router
        .delete("/_/proxy/tenants/:tid/modules")
        .handler(
            guarded(
                ctx ->
                    Replies.noContent(
                        ctx,
                        longRunning(
                            ctx, installer.disableAll(ctx.pathParam("tid"), options(ctx))))));
    router
        .get("/_/proxy/tenants/:tid/modules/:mid")
        .handler(
            ctx ->
                Replies.ok(
                    ctx,
                    modules
                        .enabled(ctx.pathParam("tid"))
                        .map(
                            list ->
                                list.stream()
                                    .filter(m -> m.id().equals(ctx.pathParam("mid")))
                                    .findFirst()
                                    .map(m -> idJson(m.id()))
                                    .orElseThrow(
                                        () ->
                                            HttpError.notFound(
                                                "module "
                                                    + ctx.pathParam("mid")
                                                    + " is not enabled for tenant "
                                                    + ctx.pathParam("tid"))))));
    router.post("/_/proxy/tenants/:tid/modules/:mid").handler(guarded(this::upgrade));
    router
        .delete("/_/proxy/tenants/:tid/modules/:mid")
        .handler(
            guarded(
                ctx ->
                    Replies.noContent(
                        ctx,
                        longRunning(
                            ctx,
                            installer.disable(
                                ctx.pathParam("tid"), ctx.pathParam("mid"), options(ctx))))));
  }

  private void enable(RoutingContext ctx) {
    String tenant = ctx.pathParam("tid");
    String id = moduleId(ctx, "enable");
    Replies.created(
        ctx,
        longRunning(ctx, installer.enable(tenant, id, options(ctx))).map(TenantsApi::idJson),
        json -> Replies.tenantLocation(tenant, "modules", json.getString("id")));
  }

  /** Okapi's upgrade of one module: {@code POST .../modules/{from}} with {@code {"id": to}}. */
  private void upgrade(RoutingContext ctx) {
    String tenant = ctx.pathParam("tid");
    String id = moduleId(ctx, "upgrade");
    Replies.created(
        ctx,
        longRunning(ctx, installer.upgrade(tenant, ctx.pathParam("mid"), id, options(ctx)))
            .map(TenantsApi::idJson),
        json -> Replies.tenantLocation(tenant, "modules", json.getString("id")));
  }

  private static String moduleId(RoutingContext ctx, String what) {
    Object id = Replies.jsonObject(ctx).getValue("id");
    if (!(id instanceof String s) || s.isBlank()) {
      throw HttpError.badRequest(
          what
              + ": missing id of the module, which must be a string:"
              + " {\"id\": \"mod-x-1.0.0\"}");
    }
    return s;
  }

  /**
   * Modules' {@code _tenant} calls may take minutes: the client's connection stays open while they
   * run, however long {@code server.idle-timeout} is.
   */
  static <T> Future<T> longRunning(RoutingContext ctx, Future<T> work) {
    return IdleTimeouts.suspendWhile(ctx.request(), work);
  }

  static InstallOptions options(RoutingContext ctx) {
    return InstallOptions.from(ctx.request().params());
  }

  private static JsonObject idJson(String id) {
    return new JsonObject().put("id", id);
  }
}
