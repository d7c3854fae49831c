package io.okapigw.core.registry;

import io.okapigw.core.http.HttpError;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Enabling and disabling modules for a tenant, with Okapi's dependency checks. */
public final class TenantModules {

  private final RegistryStore store;
  private final Mutations mutations;
  private final EnableHook enableHook;

  TenantModules(RegistryStore store, Mutations mutations, EnableHook enableHook) {
    this.store = store;
    this.mutations = mutations;
    this.enableHook = enableHook;
  }

  /** @return the modules enabled for the tenant; 404 if the tenant is unknown */
  public Future<List<ModuleDescriptor>> enabled(String tenant) {
    return existingTenant(tenant).compose(v -> enabledModules(tenant));
  }

  /**
   * Enables a module for a tenant after checking its requirements and running the enable hook.
   *
   * @return the module; 404 unknown tenant, 400 unknown module, already enabled, missing
   *     interfaces or an interface another enabled module provides
   */
  public Future<ModuleDescriptor> enable(String tenant, String moduleId) {
    if (moduleId == null || moduleId.isBlank()) {
      return Future.failedFuture(HttpError.badRequest("enable: missing id of the module"));
    }
    return mutations.run(() -> existingTenant(tenant)
        .compose(v -> store.module(moduleId))
        .map(m -> m.orElseThrow(() -> HttpError.badRequest("enable: unknown module " + moduleId
            + " (register it at /_/proxy/modules first)")))
        .compose(module -> enabledModules(tenant).compose(current -> enable(tenant, module, current))),
        m -> Future.succeededFuture(Set.of(tenant)));
  }

  private Future<ModuleDescriptor> enable(String tenant, ModuleDescriptor module,
      List<ModuleDescriptor> current) {
    if (current.stream().anyMatch(m -> m.id().equals(module.id()))) {
      return Future.failedFuture(HttpError.badRequest("module " + module.id()
          + " is already enabled for tenant " + tenant));
    }
    List<ModuleDescriptor> after = new ArrayList<>(current);
    after.add(module);
    Dependencies.checkEnable(tenant, module, after);
    return enableHook.beforeEnable(tenant, module, List.copyOf(after))
        .compose(v -> store.setEnabledModules(tenant, after.stream().map(ModuleDescriptor::id).toList()))
        .map(module);
  }

  /**
   * Disables a module; 404 if not enabled, 400 if an enabled module still needs it or it is the
   * supertenant's okapi module (the admin API would be gone).
   */
  public Future<Void> disable(String tenant, String moduleId) {
    if (TenantDescriptor.SUPERTENANT.equals(tenant) && isOkapiModule(moduleId)) {
      return Future.failedFuture(HttpError.badRequest("cannot disable " + moduleId + " for the"
          + " supertenant: the admin API is its interface"));
    }
    return mutations.run(() -> existingTenant(tenant)
        .compose(v -> enabledModules(tenant))
        .compose(current -> {
          Optional<ModuleDescriptor> module = current.stream()
              .filter(m -> m.id().equals(moduleId)).findFirst();
          if (module.isEmpty()) {
            throw HttpError.notFound("module " + moduleId + " is not enabled for tenant " + tenant);
          }
          List<ModuleDescriptor> remaining = new ArrayList<>(current);
          remaining.remove(module.get());
          Dependencies.checkDisable(tenant, module.get(), remaining);
          return enableHook.beforeDisable(tenant, module.get(), current)
              .compose(v -> store.setEnabledModules(tenant,
                  remaining.stream().map(ModuleDescriptor::id).toList()));
        }), v -> Future.succeededFuture(Set.of(tenant)));
  }

  /** @return whether the id is of a gateway's built-in okapi module ({@code okapi-<version>}) */
  static boolean isOkapiModule(String moduleId) {
    return moduleId.startsWith("okapi-");
  }

  /** @return ids of the tenants that have the module enabled */
  Future<List<String>> tenantsUsing(String moduleId) {
    return store.tenants().compose(tenants -> Future.all(tenants.stream()
            .map(t -> store.enabledModules(t.id())
                .map(ids -> ids.contains(moduleId) ? t.id() : null))
            .toList()))
        .map(all -> all.<String>list().stream().filter(id -> id != null).toList());
  }

  private Future<Void> existingTenant(String tenant) {
    return store.tenant(tenant).map(t -> {
      if (t.isEmpty()) {
        throw Registry.unknownTenant(tenant);
      }
      return null;
    });
  }

  private Future<List<ModuleDescriptor>> enabledModules(String tenant) {
    return store.enabledModules(tenant)
        .compose(ids -> Future.all(ids.stream().map(store::module).toList()))
        .map(all -> all.<Optional<ModuleDescriptor>>list().stream()
            .flatMap(Optional::stream).toList());
  }
}
