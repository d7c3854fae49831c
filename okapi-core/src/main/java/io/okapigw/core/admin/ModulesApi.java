package io.okapigw.core.admin;

import static io.okapigw.core.admin.Replies.guarded;

import io.okapigw.core.http.HttpError;
import io.okapigw.core.pull.Pull;
import io.okapigw.core.registry.ModuleDescriptor;
import io.okapigw.core.registry.Registry;
import io.okapigw.core.registry.VersionFilter;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code /_/proxy/modules}: register (one, or many at {@code /_/proxy/import/modules}, or those
 * another Okapi has at {@code /_/proxy/pull/modules}), list, read and remove module descriptors
 * (obsolete snapshots at {@code /_/proxy/cleanup/modules}), with Okapi 6.1.5's checks and query
 * parameters.
 */
final class ModulesApi implements AdminRoutes {

  private static final String BASE = "/_/proxy/modules";

  private final Registry registry;
  private final Pull pull;

  ModulesApi(Registry registry, Pull pull) {
    this.registry = registry;
    this.pull = pull;
  }

  @Override
  public void mount(Router router) {
    router.post(BASE).handler(guarded(this::create));
    router.post("/_/proxy/import/modules").handler(guarded(this::importAll));
    router
        .post("/_/proxy/pull/modules")
        .handler(guarded(ctx -> Replies.okList(ctx, pull.pull(Replies.jsonObject(ctx)))));
    router.post("/_/proxy/cleanup/modules").handler(guarded(this::cleanup));
    router
        .get(BASE)
        .handler(
            guarded(
                ctx ->
                    ModuleListQuery.of(ctx.request().params())
                        .reply(ctx, withoutSkipped(ctx, registry.modules()))));
    router
        .get(BASE + "/:id")
        .handler(
            ctx ->
                Replies.ok(
                    ctx, registry.module(ctx.pathParam("id")).map(ModuleDescriptor::toJson)));
    router
        .delete(BASE + "/:id")
        .handler(
            guarded(
                ctx ->
                    Replies.noContent(
                        ctx,
                        registry.deleteModule(
                            ctx.pathParam("id"),
                            QueryParams.bool(ctx.request().params(), "check", true)))));
  }

  /**
   * Okapi's list leaves out the ids a body lists ({@code ["mod-a-1.0.0", ...]}): what a pulling
   * Okapi sends, the descriptors it has already.
   */
  private static Future<List<ModuleDescriptor>> withoutSkipped(
      RoutingContext ctx, Future<List<ModuleDescriptor>> modules) {
    if (AdminBody.of(ctx).length() == 0) {
      return modules;
    }
    Set<String> skipped = new HashSet<>();
    for (Object id : Replies.jsonArray(ctx, "an array of module ids to leave out")) {
      skipped.add(String.valueOf(id));
    }
    return modules.map(all -> all.stream().filter(m -> !skipped.contains(m.id())).toList());
  }

  /**
   * Okapi's {@code POST /_/proxy/cleanup/modules?saveReleases=N&saveSnapshots=M}: removes the
   * obsolete pre-releases and snapshots; 204.
   */
  private void cleanup(RoutingContext ctx) {
    MultiMap params = ctx.request().params();
    int releases = required(params, "saveReleases");
    int snapshots = required(params, "saveSnapshots");
    boolean removeDependencies = QueryParams.bool(params, "removeDependencies", false);
    Replies.noContent(ctx, registry.deleteObsolete(releases, snapshots, removeDependencies));
  }

  private static int required(MultiMap params, String name) {
    Integer value = QueryParams.integer(params, name);
    if (value == null) {
      throw HttpError.badRequest("Missing value for parameter '" + name + "'");
    }
    return value;
  }

  /** One descriptor: 201 with it, also when an identical one was registered already. */
  private void create(RoutingContext ctx) {
    JsonObject json = Replies.jsonObject(ctx);
    Options options = Options.of(ctx.request().params());
    Replies.created(
        ctx,
        Replies.offLoop(ctx, () -> ModuleDescriptor.fromPosted(json))
            .compose(
                module ->
                    registry
                        .addModules(List.of(module), options.check(), options.providers())
                        .map(added -> module.toJson())),
        created -> Replies.location(BASE, created.getString("id")));
  }

  /** Okapi's bulk import: an array of descriptors, registered all or none; 204. */
  private void importAll(RoutingContext ctx) {
    JsonArray array = Replies.jsonArray(ctx, "an array of module descriptors");
    Options options = Options.of(ctx.request().params());
    Replies.noContent(
        ctx,
        Replies.offLoop(ctx, () -> read(array))
            .compose(modules -> registry.addModules(modules, options.check(), options.providers()))
            .mapEmpty());
  }

  private static List<ModuleDescriptor> read(JsonArray array) {
    List<ModuleDescriptor> modules = new ArrayList<>(array.size());
    for (int i = 0; i < array.size(); i++) {
      if (!(array.getValue(i) instanceof JsonObject json)) {
        throw HttpError.badRequest(
            "import: item " + i + " is not a module descriptor (a JSON" + " object)");
      }
      modules.add(ModuleDescriptor.fromPosted(json));
    }
    return modules;
  }

  /**
   * Okapi's parameters for registering: {@code check} (dependencies, default true), and {@code
   * preRelease} and {@code npmSnapshot}, which registered modules may provide for them.
   */
  private record Options(boolean check, VersionFilter providers) {

    static Options of(MultiMap params) {
      return new Options(
          QueryParams.bool(params, "check", true),
          VersionFilter.of(params.get("preRelease"), params.get("npmSnapshot")));
    }
  }
}
