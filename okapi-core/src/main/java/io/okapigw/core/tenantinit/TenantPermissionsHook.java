package io.okapigw.core.tenantinit;

import io.okapigw.core.http.HttpError;
import io.okapigw.core.registry.EnableHook;
import io.okapigw.core.registry.InterfaceDescriptor;
import io.okapigw.core.registry.ModuleDescriptor;
import io.okapigw.core.registry.RegistryStore;
import io.okapigw.core.registry.RoutingEntry;
import io.okapigw.core.routing.RoutingTable;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Hands a module's permission sets to the tenant's permissions module (the one providing the
 * {@code _tenantPermissions} system interface) before the module counts as enabled, as Okapi
 * 6.1.5 does, in the body its interface version expects: 1.0 the descriptor's sets; 1.1 also
 * the {@code SYS#...} sets of the handlers' module permissions; 2.0 the same, and an empty list
 * when the module is disabled; 2.1 also the module's {@code replaces}. When the permissions
 * module itself is enabled, it gets its own sets first, then every enabled module's.
 */
public final class TenantPermissionsHook implements EnableHook {

  private static final List<String> VERSIONS = List.of("1.0", "1.1", "2.0", "2.1");

  private final SystemCalls calls;

  public TenantPermissionsHook(Vertx vertx, RegistryStore store, String okapiUrl) {
    this.calls = new SystemCalls(vertx.createHttpClient(), store, okapiUrl);
  }

  @Override
  public Future<Void> beforeEnable(String tenant, ModuleDescriptor module,
      List<ModuleDescriptor> enabledAfter) {
    Optional<ModuleDescriptor> provider = provider(enabledAfter);
    if (provider.isEmpty()) {
      return Future.succeededFuture();
    }
    List<ModuleDescriptor> toPost = new ArrayList<>(List.of(module));
    if (provider.get() == module) {
      enabledAfter.stream().filter(m -> m != module).forEach(toPost::add);
    }
    Future<Void> chain = Future.succeededFuture();
    for (ModuleDescriptor m : toPost) {
      chain = chain.compose(v -> post(tenant, enabledAfter, provider.get(), body(provider.get(),
          m, false)));
    }
    return chain;
  }

  @Override
  public Future<Void> beforeDisable(String tenant, ModuleDescriptor module,
      List<ModuleDescriptor> enabledBefore) {
    Optional<ModuleDescriptor> provider = provider(enabledBefore)
        .filter(p -> interfaceVersion(p).startsWith("2."));
    return provider.isEmpty() ? Future.succeededFuture() : Future.succeededFuture()
        .compose(v -> post(tenant, enabledBefore, provider.get(), body(provider.get(), module,
            true)));
  }

  private Future<Void> post(String tenant, List<ModuleDescriptor> enabled,
      ModuleDescriptor provider, JsonObject body) {
    RoutingEntry handler = SystemCalls.postHandler(provider, RoutingTable.TENANT_PERMISSIONS)
        .orElseThrow(() -> HttpError.badRequest("bad _tenantPermissions interface in module "
            + provider.id() + ": no handler to POST to"));
    return calls.call(tenant, enabled, provider, handler, HttpMethod.POST,
            handler.staticPath(), body)
        .compose(answer -> answer.status() / 100 == 2 ? Future.<Void>succeededFuture()
            : Future.failedFuture(new HttpError(answer.status() / 100 == 4 ? 400 : 502,
                "permissions module " + provider.id() + " refused the permissions of "
                    + body.getString("moduleId") + " (" + answer.status() + "): "
                    + SystemCalls.excerpt(answer.body()))));
  }

  private static JsonObject body(ModuleDescriptor provider, ModuleDescriptor module,
      boolean disable) {
    String version = interfaceVersion(provider);
    if (!VERSIONS.contains(version)) {
      throw HttpError.badRequest("unknown version of the _tenantPermissions interface in use: "
          + version + " (module " + provider.id() + ")");
    }
    JsonObject body = new JsonObject().put("moduleId", module.id());
    JsonArray sets = disable ? new JsonArray()
        : version.equals("1.0") ? module.permissionSets() : module.expandedPermissionSets();
    if (disable || !sets.isEmpty()) {
      body.put("perms", version.startsWith("1.") ? withoutReplaces(sets) : sets);
    }
    if (version.equals("2.1") && !disable && !module.replaces().isEmpty()) {
      body.put("replaces", module.replaces());
    }
    return body;
  }

  private static JsonArray withoutReplaces(JsonArray sets) {
    sets.forEach(set -> ((JsonObject) set).remove("replaces"));
    return sets;
  }

  private static Optional<ModuleDescriptor> provider(List<ModuleDescriptor> enabled) {
    return enabled.stream()
        .filter(m -> m.providedInterface(RoutingTable.TENANT_PERMISSIONS).isPresent())
        .findFirst();
  }

  private static String interfaceVersion(ModuleDescriptor provider) {
    return provider.providedInterface(RoutingTable.TENANT_PERMISSIONS)
        .map(InterfaceDescriptor::version).orElseThrow();
  }
}
