package io.okapigw.core.tenantinit;

import io.okapigw.core.http.HttpError;
import io.okapigw.core.registry.InterfaceDescriptor;
import io.okapigw.core.registry.ModuleDescriptor;
import io.okapigw.core.registry.RoutingEntry;
import io.okapigw.core.routing.RoutingTable;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Optional;

/**
 * Hands a module's permission sets to the tenant's permissions module (the one providing the {@code
 * _tenantPermissions} system interface), in the body its interface version expects, as Okapi 6.1.5
 * does: 1.0 the descriptor's sets; 1.1 also the {@code SYS#...} sets of the handlers' module
 * permissions; 2.0 the same, and an empty list when the module is disabled; 2.1 also the module's
 * {@code replaces}.
 */
final class PermissionsCalls {

  private static final List<String> VERSIONS = List.of("1.0", "1.1", "2.0", "2.1");

  private final SystemCalls calls;
  private final long timeoutMillis;

  PermissionsCalls(SystemCalls calls, long timeoutMillis) {
    this.calls = calls;
    this.timeoutMillis = timeoutMillis;
  }

  /**
   * @return the first of the modules providing {@code _tenantPermissions}
   */
  static Optional<ModuleDescriptor> provider(List<ModuleDescriptor> modules) {
    return modules.stream().filter(PermissionsCalls::isProvider).findFirst();
  }

  /**
   * @return whether the module provides {@code _tenantPermissions}
   */
  static boolean isProvider(ModuleDescriptor module) {
    return module.providedInterface(RoutingTable.TENANT_PERMISSIONS).isPresent();
  }

  /**
   * Posts the module's sets to the provider, or, for a disabled module, the empty list (2.x; 1.x
   * providers are told nothing).
   *
   * @param enabled the tenant's enabled modules (where the auth module is looked for)
   * @return done; failed 400 (the provider refused, 4xx) or 502 naming both modules
   */
  Future<Void> post(
      String tenant,
      List<ModuleDescriptor> enabled,
      ModuleDescriptor provider,
      ModuleDescriptor module,
      boolean disable) {
    String version = interfaceVersion(provider);
    if (!VERSIONS.contains(version)) {
      return Future.failedFuture(
          HttpError.badRequest(
              "unknown version of the"
                  + " _tenantPermissions interface in use: "
                  + version
                  + " (module "
                  + provider.id()
                  + ")"));
    }
    if (disable && version.startsWith("1.")) {
      return Future.succeededFuture();
    }
    Optional<RoutingEntry> handler =
        SystemCalls.postHandler(provider, RoutingTable.TENANT_PERMISSIONS);
    if (handler.isEmpty()) {
      return Future.failedFuture(
          HttpError.badRequest(
              "bad _tenantPermissions interface in"
                  + " module "
                  + provider.id()
                  + ": no handler to POST to"));
    }
    JsonObject body = body(version, module, disable);
    return calls
        .call(
            tenant,
            enabled,
            provider,
            handler.get(),
            HttpMethod.POST,
            handler.get().staticPath(),
            body.toBuffer(),
            timeoutMillis)
        .compose(
            answer ->
                answer.status() / 100 == 2
                    ? Future.<Void>succeededFuture()
                    : Future.failedFuture(
                        new HttpError(
                            answer.status() / 100 == 4 ? 400 : 502,
                            "permissions module "
                                + provider.id()
                                + " refused the permissions of "
                                + module.id()
                                + " ("
                                + answer.status()
                                + "): "
                                + SystemCalls.excerpt(answer.body()))));
  }

  private static JsonObject body(String version, ModuleDescriptor module, boolean disable) {
    JsonObject body = new JsonObject().put("moduleId", module.id());
    JsonArray sets =
        disable
            ? new JsonArray()
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

  private static String interfaceVersion(ModuleDescriptor provider) {
    return provider
        .providedInterface(RoutingTable.TENANT_PERMISSIONS)
        .map(InterfaceDescriptor::version)
        .orElseThrow();
  }
}
