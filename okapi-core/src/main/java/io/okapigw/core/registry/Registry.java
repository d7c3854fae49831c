package io.okapigw.core.registry;

import io.okapigw.core.http.HttpError;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The registry's use cases behind the admin API: modules, tenants and discovery, with Okapi's
 * rules. Failures are {@link HttpError}s with a 4xx naming the problem; a refused change leaves the
 * store as it was.
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

  /**
   * @return the modules enabled for each tenant
   */
  public TenantModules tenantModules() {
    return tenantModules;
  }

  /**
   * Registers a listener that runs after every successful change; the admin call answers only when
   * the listener's future completes.
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
    return mutations.run(
        () ->
            store
                .insertModule(okapiModule)
                .compose(v -> store.insertTenant(TenantDescriptor.supertenant()))
                .compose(v -> store.tenants())
                .compose(
                    tenants ->
                        Future.all(
                            tenants.stream()
                                .map(t -> useOkapiModule(t.id(), okapiModule.id()))
                                .toList()))
                .mapEmpty());
  }

  private Future<Void> useOkapiModule(String tenant, String okapiId) {
    return store
        .enabledModules(tenant)
        .compose(
            ids -> {
              List<String> updated =
                  new ArrayList<>(
                      ids.stream()
                          .map(id -> TenantModules.isOkapiModule(id) ? okapiId : id)
                          .distinct()
                          .toList());
              if (TenantDescriptor.SUPERTENANT.equals(tenant) && !updated.contains(okapiId)) {
                updated.add(0, okapiId);
              }
              return updated.equals(ids)
                  ? Future.succeededFuture()
                  : store.setEnabledModules(tenant, updated);
            });
  }

  /**
   * Registers descriptors as Okapi's {@code createList} does, all or none: one identical to a
   * registered descriptor (or to one earlier in the list) is skipped, so posting it again succeeds;
   * a different descriptor with a registered id is refused. With {@code check}, every interface the
   * new modules require must be provided by a registered module or one of the new ones (those the
   * filter passes), in a compatible version.
   *
   * @param modules the descriptors, read and checked ({@link ModuleDescriptor#fromPosted})
   * @param check whether to check dependencies (Okapi's {@code check}, default true)
   * @param providers which registered modules count as providers ({@code preRelease}, {@code
   *     npmSnapshot})
   * @return the modules registered now (those not there before); 400 naming every problem
   */
  public Future<List<ModuleDescriptor>> addModules(
      List<ModuleDescriptor> modules, boolean check, VersionFilter providers) {
    return mutations.run(
        () ->
            store
                .modules()
                .compose(
                    registered -> {
                      Map<String, ModuleDescriptor> known = new LinkedHashMap<>();
                      registered.forEach(m -> known.put(m.id(), m));
                      List<ModuleDescriptor> added = new ArrayList<>();
                      for (ModuleDescriptor module : modules) {
                        ModuleDescriptor existing = known.putIfAbsent(module.id(), module);
                        if (existing == null) {
                          added.add(module);
                        } else if (!existing.sameAs(module)) {
                          throw HttpError.badRequest(
                              "module "
                                  + module.id()
                                  + " already exists with a different"
                                  + " descriptor (posting an identical one again is accepted)");
                        }
                      }
                      if (check) {
                        List<ModuleDescriptor> available =
                            known.values().stream()
                                .filter(m -> added.contains(m) || providers.matches(m.moduleId()))
                                .toList();
                        checkMet(Dependencies.unmet(available, added));
                      }
                      Future<Void> inserted = Future.succeededFuture();
                      for (ModuleDescriptor module : added) {
                        inserted = inserted.compose(v -> store.insertModule(module).mapEmpty());
                      }
                      return inserted.map(v -> List.copyOf(added));
                    }));
  }

  private static void checkMet(List<String> unmet) {
    if (!unmet.isEmpty()) {
      throw HttpError.badRequest(String.join("\n", unmet));
    }
  }

  public Future<List<ModuleDescriptor>> modules() {
    return store.modules();
  }

  /**
   * @return the module; fails 404 if unknown
   */
  public Future<ModuleDescriptor> module(String id) {
    return store.module(id).map(m -> m.orElseThrow(() -> unknownModule(id)));
  }

  /**
   * Removes a module no tenant has enabled, and its instances; 404 unknown, 400 in use or, with
   * {@code check}, when another registered module needs an interface only it provides.
   */
  public Future<Void> deleteModule(String id, boolean check) {
    return mutations.run(
        () ->
            module(id)
                .compose(
                    m ->
                        tenantModules
                            .tenantsUsing(id)
                            .compose(
                                users -> {
                                  if (!users.isEmpty()) {
                                    throw HttpError.badRequest(
                                        "module "
                                            + id
                                            + " is enabled for tenant(s) "
                                            + String.join(", ", users)
                                            + "; disable it first");
                                  }
                                  return check
                                      ? store
                                          .modules()
                                          .map(
                                              all -> {
                                                List<String> broken =
                                                    Dependencies.brokenByRemoval(m, all);
                                                if (!broken.isEmpty()) {
                                                  throw HttpError.badRequest(
                                                      "delete: module "
                                                          + id
                                                          + ": "
                                                          + String.join("\n", broken)
                                                          + "\n(remove those modules first, or delete with ?check=false)");
                                                }
                                                return m;
                                              })
                                      : Future.succeededFuture(m);
                                }))
                .compose(m -> store.deleteModule(id))
                .compose(deleted -> store.deleteDeployments(id, null))
                .mapEmpty());
  }

  /**
   * Creates a tenant; one posted without an id gets one as in Okapi ({@code t} and 30 hex digits).
   * 400 if invalid (a new id as Okapi's, {@link TenantDescriptor#checkNewId}) or the id exists.
   */
  public Future<TenantDescriptor> addTenant(JsonObject json) {
    Object id = json.getValue("id");
    TenantDescriptor tenant =
        TenantDescriptor.fromJson(id == null || "".equals(id) ? withGeneratedId(json) : json, null);
    TenantDescriptor.checkNewId(tenant.id());
    return mutations.run(
        () ->
            store
                .insertTenant(tenant)
                .map(
                    inserted ->
                        created(inserted, tenant, "tenant " + tenant.id() + " already exists")));
  }

  private static JsonObject withGeneratedId(JsonObject json) {
    JsonObject withId = new JsonObject().put("id", TenantDescriptor.generatedId());
    json.forEach(field -> withId.getMap().putIfAbsent(field.getKey(), field.getValue()));
    return withId;
  }

  /**
   * Replaces a tenant's name and description, or creates the tenant if there is none (as Okapi's
   * {@code PUT}; a new id must follow {@link TenantDescriptor#checkNewId}).
   *
   * @return the tenant as stored
   */
  public Future<TenantDescriptor> putTenant(String id, JsonObject json) {
    TenantDescriptor tenant = TenantDescriptor.fromJson(json, id);
    return mutations.run(
        () ->
            store
                .updateTenant(tenant)
                .compose(
                    updated -> {
                      if (updated) {
                        return Future.succeededFuture(tenant);
                      }
                      TenantDescriptor.checkNewId(id);
                      return store
                          .insertTenant(tenant)
                          .map(
                              inserted ->
                                  created(inserted, tenant, "tenant " + id + " created meanwhile"));
                    }));
  }

  public Future<List<TenantDescriptor>> tenants() {
    return store.tenants();
  }

  /**
   * @return the tenant; fails 404 if unknown
   */
  public Future<TenantDescriptor> tenant(String id) {
    return store.tenant(id).map(t -> t.orElseThrow(() -> unknownTenant(id)));
  }

  /** Deletes a tenant and its enablements; 404 if unknown, 400 for the supertenant. */
  public Future<Void> deleteTenant(String id) {
    if (TenantDescriptor.SUPERTENANT.equals(id)) {
      return Future.failedFuture(
          HttpError.badRequest(
              "cannot delete the supertenant: the admin" + " API is its module's interface"));
    }
    return mutations.run(
        () ->
            store
                .deleteTenant(id)
                .map(
                    deleted -> {
                      if (!deleted) {
                        throw unknownTenant(id);
                      }
                      return (Void) null;
                    }),
        v -> Future.succeededFuture(Set.of(id)));
  }

  /** Adds an instance of a registered module; 400 if invalid, unknown module or duplicate. */
  public Future<DeploymentDescriptor> addDeployment(JsonObject json) {
    DeploymentDescriptor deployment = DeploymentDescriptor.fromJson(json);
    return mutations.run(
        () ->
            store
                .module(deployment.srvcId())
                .compose(
                    m ->
                        m.isPresent()
                            ? store.insertDeployment(deployment)
                            : Future.failedFuture(
                                HttpError.badRequest(
                                    "deployment: unknown module "
                                        + deployment.srvcId()
                                        + " (register it at /_/proxy/modules first)")))
                .map(
                    inserted ->
                        created(
                            inserted,
                            deployment,
                            "deployment "
                                + deployment.srvcId()
                                + "/"
                                + deployment.instId()
                                + " already exists")),
        d -> tenantsAuthorizedBy(d.srvcId()));
  }

  /**
   * @return instances, all or of one module ({@code srvcId} non-null; 404 if it has none)
   */
  public Future<List<DeploymentDescriptor>> deployments(String srvcId) {
    return store
        .deployments()
        .map(
            all ->
                srvcId == null
                    ? all
                    : nonEmpty(
                        all.stream().filter(d -> d.srvcId().equals(srvcId)).toList(), srvcId));
  }

  /** Removes one instance, or all of a module's; 404 if none matched. */
  public Future<Void> deleteDeployments(String srvcId, String instId) {
    return mutations.run(
        () ->
            store
                .deleteDeployments(srvcId, instId)
                .map(
                    count -> {
                      if (count == 0) {
                        throw HttpError.notFound(
                            "no deployment " + srvcId + (instId == null ? "" : "/" + instId));
                      }
                      return (Void) null;
                    }),
        v -> tenantsAuthorizedBy(srvcId));
  }

  /**
   * @return the tenants whose auth filter the module provides: when its instances change, the
   *     grants cached from the old ones must not outlive them
   */
  private Future<Set<String>> tenantsAuthorizedBy(String moduleId) {
    return store
        .module(moduleId)
        .compose(
            m ->
                m.isPresent() && m.get().authFilter().isPresent()
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
