package io.okapigw.core.admin;

import static io.okapigw.core.admin.Replies.guarded;

import io.okapigw.core.registry.ModuleDescriptor;
import io.okapigw.core.registry.Registry;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;

/** {@code /_/proxy/modules}: register, list, read and remove module descriptors. */
final class ModulesApi {

  private final Registry registry;

  ModulesApi(Registry registry) {
    this.registry = registry;
  }

  void mount(Router router) {
    router.post("/_/proxy/modules").handler(guarded(ctx -> {
      JsonObject json = Replies.jsonObject(ctx);
      Replies.created(ctx, Replies.offLoop(ctx, () -> ModuleDescriptor.fromPosted(json))
              .compose(registry::addModule).map(ModuleDescriptor::toJson),
          created -> "/_/proxy/modules/" + created.getString("id"));
    }));
    router.get("/_/proxy/modules").handler(ctx -> Replies.okList(ctx,
        registry.modules().map(list -> list.stream().map(ModuleDescriptor::toJson).toList())));
    router.get("/_/proxy/modules/:id").handler(ctx -> Replies.ok(ctx,
        registry.module(ctx.pathParam("id")).map(ModuleDescriptor::toJson)));
    router.delete("/_/proxy/modules/:id").handler(ctx -> Replies.noContent(ctx,
        registry.deleteModule(ctx.pathParam("id"))));
  }
}
