package io.okapigw.core.admin;

import static io.okapigw.core.admin.Replies.guarded;

import io.okapigw.core.http.HttpError;
import io.okapigw.core.install.Installer;
import io.okapigw.core.install.Installer.InstallAnswer;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Okapi's install and upgrade of a tenant's modules, {@code /_/proxy/tenants/{t}/install} and
 * {@code /upgrade}, and the install jobs, {@code /install[/{id}]}. A synchronous install answers
 * 200 with the plan once it ran; {@code async=true} answers 201 with the plan and the job's {@code
 * Location} at once; {@code simulate=true} answers 200 with the plan and changes nothing.
 */
final class InstallApi {

  private final Installer installer;

  InstallApi(Installer installer) {
    this.installer = installer;
  }

  void mount(Router router) {
    router.post("/_/proxy/tenants/:tid/install").handler(guarded(this::install));
    router.post("/_/proxy/tenants/:tid/upgrade").handler(guarded(this::upgrade));
    router
        .get("/_/proxy/tenants/:tid/install")
        .handler(ctx -> Replies.okList(ctx, installer.jobs().list(ctx.pathParam("tid"))));
    router
        .delete("/_/proxy/tenants/:tid/install")
        .handler(
            ctx -> Replies.noContent(ctx, installer.jobs().deleteComplete(ctx.pathParam("tid"))));
    router
        .get("/_/proxy/tenants/:tid/install/:jid")
        .handler(
            ctx ->
                Replies.ok(ctx, installer.jobs().get(ctx.pathParam("tid"), ctx.pathParam("jid"))));
    router
        .delete("/_/proxy/tenants/:tid/install/:jid")
        .handler(
            ctx ->
                Replies.noContent(
                    ctx, installer.jobs().delete(ctx.pathParam("tid"), ctx.pathParam("jid"))));
  }

  private void install(RoutingContext ctx) {
    String tenant = ctx.pathParam("tid");
    reply(
        ctx,
        tenant,
        TenantsApi.longRunning(
            ctx, installer.install(tenant, jsonArray(ctx), TenantsApi.options(ctx))));
  }

  private void upgrade(RoutingContext ctx) {
    String tenant = ctx.pathParam("tid");
    Buffer body = AdminBody.of(ctx);
    if (body != null && !body.toString().isBlank()) {
      throw HttpError.badRequest(
          "/_/proxy/tenants/{tenant_id}/upgrade (upgrading to latest"
              + " version) must not have a body. Use /_/proxy/tenants/{tenant_id}/install instead to"
              + " specify which version to upgrade to.");
    }
    reply(
        ctx,
        tenant,
        TenantsApi.longRunning(ctx, installer.upgradeAll(tenant, TenantsApi.options(ctx))));
  }

  private static void reply(RoutingContext ctx, String tenant, Future<InstallAnswer> answer) {
    answer
        .compose(
            a ->
                Replies.offLoop(ctx, a.modules()::encodePrettily)
                    .map(
                        text -> {
                          if (a.jobId() != null) {
                            ctx.response()
                                .setStatusCode(201)
                                .putHeader(
                                    "Location",
                                    Replies.tenantLocation(tenant, "install", a.jobId()));
                          }
                          return ctx.response()
                              .putHeader("Content-Type", "application/json")
                              .end(text);
                        }))
        .onFailure(ctx::fail);
  }

  private static JsonArray jsonArray(RoutingContext ctx) {
    Object json;
    try {
      json = AdminBody.json(ctx);
    } catch (DecodeException e) {
      throw HttpError.badRequest("install: malformed JSON: " + e.getMessage());
    }
    if (!(json instanceof JsonArray array)) {
      throw HttpError.badRequest(
          "install: the body must be a JSON array of {\"id\": ...,"
              + " \"action\": \"enable\" | \"disable\"}");
    }
    return array;
  }
}
