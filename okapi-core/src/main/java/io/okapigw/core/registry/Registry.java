package io.okapigw.core.registry;

import io.okapigw.core.http.HttpError;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The registry's use cases behind the admin API: modules, tenants and discovery, with Okapi's
 * rules. Failures are {@link HttpError}s with a 4xx naming the problem; a refused change leaves
 * the store as it was.
 */
public final class Registry {

  private final RegistryStore store;
  private final Mutations mutations;
  private final TenantModules tenantModules;

  /**
   * @param vertx for the mutation lock
   * @param store where the registry lives
   */
  public Registry(Vertx vertx, RegistryStore store) {
    this.store = store;
    this.mutations = new Mutations(vertx);
    this.tenantModules = new TenantModules(store, mutations);
  }

  /** @return the modules enabled for each tenant */
  public TenantModules tenantModules() {
    return tenantModules;
  }

  /**
   * Registers a listener that runs after every successful change; the admin call answers only
   * when the listener's future completes.
   */
  public void onChange(Function<RegistryChange, Future<Void>> listener) {
    mutations.addListener(listener);
  }

  /**
   * Makes sure the {@code supertenant} exists with the okapi module of this gateway enabled, as
   * Okapi does at every start; a tenant with an older okapi module gets this one instead.
   * Idempotent, and safe when several cluster nodes start at once.
   *
   * @param okapiModule this gateway's okapi module
   */
  public Future<Void> ensureSupertenant(ModuleDescriptor okapiModule) {
    return mutations.run(() -> store.insertModule(okapiModule)
        .compose(v -> store.insertTenant(TenantDescriptor.supertenant()))
        .compose(v -> store.tenants())
        .compose(tenants -> Future.all(tenants.stream()
            .map(t -> useOkapiModule(t.id(), okapiModule.id())).toList()))
        .mapEmpty());
  }

  private Future<Void> useOkapiModule(String tenant, String okapiId) {
    return store.enabledModules(tenant).compose(ids -> {
      List<String> updated = new ArrayList<>(ids.stream()
          .map(id -> TenantModules.isOkapiModule(id) ? okapiId : id).distinct().toList());
      if (TenantDescriptor.SUPERTENANT.equals(tenant) && !updated.contains(okapiId)) {
        updated.add(0, okapiId);
      }
      return updated.equals(ids) ? Future.succeededFuture()
          : store.setEnabledModules(tenant, updated);
    });
  }

  /** Validates and stores a module descriptor; 400 if invalid or the id exists. */
  public Future<ModuleDescriptor> addModule(JsonObject json) {
    return addModule(ModuleDescriptor.fromJson(json));
  }

  /**
   * Stores a module descriptor already validated ({@link ModuleDescriptor#fromJson}, which may
   * run off the event loop for a large one); 400 if the id exists.
   */
  public Future<ModuleDescriptor> addModule(ModuleDescriptor module) {
    return mutations.run(() -> store.insertModule(module)
        .map(inserted -> created(inserted, module, "module " + module.id() + " already exists")));
  }

  public Future<List<ModuleDescriptor>> modules() {
    return store.modules();
  }

  /** @return the module; fails 404 if unknown */
  public Future<ModuleDescriptor> module(String id) {
    return store.module(id).map(m -> m.orElseThrow(() -> unknownModule(id)));
  }

  /** Removes a module no tenant has enabled, and its instances; 404 unknown, 400 in use. */
  public Future<Void> deleteModule(String id) {
    return mutations.run(() -> module(id)
        .compose(m -> tenantModules.tenantsUsing(id))
        .compose(users -> users.isEmpty() ? store.deleteModule(id)
            : Future.failedFuture(HttpError.badRequest("module " + id
                + " is enabled for tenant(s) " + String.join(", ", users) + "; disable it first")))
        .compose(deleted -> store.deleteDeployments(id, null))
        .mapEmpty());
  }

  /** Creates a tenant; 400 if invalid or the id exists. */
  public Future<TenantDescriptor> addTenant(JsonObject json) {
    TenantDescriptor tenant = TenantDescriptor.fromJson(json, null);
    return mutations.run(() -> store.insertTenant(tenant)
        .map(inserted -> created(inserted, tenant, "tenant " + tenant.id() + " already exists")));
  }

  /** Replaces a tenant's name and description; 404 if unknown. */
  public Future<TenantDescriptor> updateTenant(String id, JsonObject json) {
    TenantDescriptor tenant = TenantDescriptor.fromJson(json, id);
    return mutations.run(() -> store.updateTenant(tenant)
        .map(updated -> {
          if (!updated) {
            throw unknownTenant(id);
          }
          return tenant;
        }));
  }

  public Future<List<TenantDescriptor>> tenants() {
    return store.tenants();
  }

  /** @return the tenant; fails 404 if unknown */
  public Future<TenantDescriptor> tenant(String id) {
    return store.tenant(id).map(t -> t.orElseThrow(() -> unknownTenant(id)));
  }

  /** Deletes a tenant and its enablements; 404 if unknown, 400 for the supertenant. */
  public Future<Void> deleteTenant(String id) {
    if (TenantDescriptor.SUPERTENANT.equals(id)) {
      return Future.failedFuture(HttpError.badRequest("cannot delete the supertenant: the admin"
          + " API is its module's interface"));
    }
    return mutations.run(() -> store.deleteTenant(id)
        .map(deleted -> {
          if (!deleted) {
            throw unknownTenant(id);
          }
          return (Void) null;
        }), v -> Future.succeededFuture(Set.of(id)));
  }

  /** Adds an instance of a registered module; 400 if invalid, unknown module or duplicate. */
  public Future<DeploymentDescriptor> addDeployment(JsonObject json) {
    DeploymentDescriptor deployment = DeploymentDescriptor.fromJson(json);
    return mutations.run(() -> store.module(deployment.srvcId())
        .compose(m -> m.isPresent() ? store.insertDeployment(deployment)
            : Future.failedFuture(HttpError.badRequest("deployment: unknown module "
                + deployment.srvcId() + " (register it at /_/proxy/modules first)")))
        .map(inserted -> created(inserted, deployment, "deployment " + deployment.srvcId() + "/"
            + deployment.instId() + " already exists")),
        d -> tenantsAuthorizedBy(d.srvcId()));
  }

  /** @return instances, all or of one module ({@code srvcId} non-null; 404 if it has none) */
  public Future<List<DeploymentDescriptor>> deployments(String srvcId) {
    return store.deployments()
        .map(all -> srvcId == null ? all
            : nonEmpty(all.stream().filter(d -> d.srvcId().equals(srvcId)).toList(), srvcId));
  }

  /** Removes one instance, or all of a module's; 404 if none matched. */
  public Future<Void> deleteDeployments(String srvcId, String instId) {
    return mutations.run(() -> store.deleteDeployments(srvcId, instId)
        .map(count -> {
          if (count == 0) {
            throw HttpError.notFound("no deployment " + srvcId + (instId == null ? "" : "/" + instId));
          }
          return (Void) null;
        }), v -> tenantsAuthorizedBy(srvcId));
  }

  /**
   * @return the tenants whose auth filter the module provides: when its instances change, the
   *     grants cached from the old ones must not outlive them
   */
  private Future<Set<String>> tenantsAuthorizedBy(String moduleId) {
    return store.module(moduleId).compose(m -> m.isPresent() && m.get().authFilter().isPresent()
        ? tenantModules.tenantsUsing(moduleId).map(Set::copyOf)
        : Future.succeededFuture(Set.of()));
  }

  private static List<DeploymentDescriptor> nonEmpty(List<DeploymentDescriptor> list, String id) {
    if (list.isEmpty()) {
      throw HttpError.notFound("no deployment of module " + id);
    }
    return list;
  }

  private static <T> T created(boolean inserted, T value, String duplicateMessage) {
    if (!inserted) {
      throw HttpError.badRequest(duplicateMessage);
    }
    return value;
  }

  static HttpError unknownModule(String id) {
    return HttpError.notFound("unknown module " + id);
  }

  static HttpError unknownTenant(String id) {
    return HttpError.notFound("unknown tenant " + id);
  }
}
