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
 * The registry's use cases behind the admin API: modules and tenants (and through {@link
 * #tenantModules()} and {@link #discovery()}, what tenants enable and where modules run), with
 * Okapi's rules. Failures are {@link HttpError}s with a 4xx naming the problem; a refused change
 * leaves the store as it was.
 */
public final class Registry {

  private final RegistryStore store;
  private final Mutations mutations;
  private final TenantModules tenantModules;
  private final Discovery discovery;

  /**
   * @param vertx for the mutation lock
   * @param store where the registry lives
   */
  public Registry(Vertx vertx, RegistryStore store) {
    this.store = store;
    this.mutations = new Mutations(vertx);
    this.tenantModules = new TenantModules(store, mutations);
    this.discovery = new Discovery(store, mutations, tenantModules);
  }

  /**
   * @return the modules enabled for each tenant
   */
  public TenantModules tenantModules() {
    return tenantModules;
  }

  /**
   * @return the modules' running instances
   */
  public Discovery discovery() {
    return discovery;
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
                .mapEmpty(),
        v -> ChangeScope.all());
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
                    }),
        added -> ChangeScope.modules(added.stream().map(ModuleDescriptor::id).toList()));
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
   * Okapi's {@code POST /_/proxy/cleanup/modules}: removes the obsolete pre-releases and snapshots
   * ({@link Obsolete}), all or none. Without {@code removeDependencies} it is refused (400) if a
   * remaining module would then miss a requirement; with it, such modules are removed too. Refused
   * (400) if a tenant has one of them enabled. The gateway's own okapi module is never removed (a
   * development build's is a pre-release).
   */
  public Future<Void> deleteObsolete(
      int saveReleases, int saveSnapshots, boolean removeDependencies) {
    return mutations
        .<List<String>>run(
            () ->
                store
                    .modules()
                    .compose(
                        all -> {
                          List<ModuleDescriptor> obsolete =
                              new ArrayList<>(
                                  Obsolete.of(all, saveReleases, saveSnapshots).stream()
                                      .filter(m -> !TenantModules.isOkapiModule(m.id()))
                                      .toList());
                          List<ModuleDescriptor> kept = new ArrayList<>(all);
                          kept.removeAll(obsolete);
                          List<String> unmet = Dependencies.unmet(kept, kept);
                          while (removeDependencies && !unmet.isEmpty()) {
                            List<ModuleDescriptor> broken =
                                kept.stream()
                                    .filter(m -> !Dependencies.unmet(kept, List.of(m)).isEmpty())
                                    .toList();
                            kept.removeAll(broken);
                            obsolete.addAll(broken);
                            unmet = Dependencies.unmet(kept, kept);
                          }
                          if (!unmet.isEmpty()) {
                            throw HttpError.badRequest(
                                "Removing obsolete modules resulted in missing dependencies.\n"
                                    + "Supply removeDependencies=true if you think it's ok to remove"
                                    + " them.\n"
                                    + String.join("\n", unmet));
                          }
                          return inUse(obsolete)
                              .compose(v -> deleteAll(obsolete))
                              .map(v -> obsolete.stream().map(ModuleDescriptor::id).toList());
                        }),
            ChangeScope::modules)
        .mapEmpty();
  }

  private Future<Void> inUse(List<ModuleDescriptor> modules) {
    Future<Void> chain = Future.succeededFuture();
    for (ModuleDescriptor m : modules) {
      chain =
          chain.compose(
              v ->
                  tenantModules
                      .tenantsUsing(m.id())
                      .map(
                          users -> {
                            if (!users.isEmpty()) {
                              throw HttpError.badRequest(
                                  "delete: module "
                                      + m.id()
                                      + " is used by tenant "
                                      + users.get(0));
                            }
                            return null;
                          }));
    }
    return chain;
  }

  private Future<Void> deleteAll(List<ModuleDescriptor> modules) {
    Future<Void> chain = Future.succeededFuture();
    for (ModuleDescriptor m : modules) {
      chain = chain.compose(v -> store.deleteModule(m.id()).mapEmpty());
    }
    return chain;
  }

  /**
   * Removes a module no tenant has enabled; 404 unknown, 400 in use or, with {@code check}, when
   * another registered module needs an interface only it provides. Its instances stay registered,
   * as in Okapi (removed at {@code /_/discovery/modules}).
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
                .mapEmpty(),
        v -> ChangeScope.modules(List.of(id)));
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
                        created(inserted, tenant, "tenant " + tenant.id() + " already exists")),
        t -> ChangeScope.tenants(t.id()));
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
                    }),
        t -> ChangeScope.tenants(id));
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
        v -> ChangeScope.tenants(id),
        v -> Future.succeededFuture(Set.of(id)));
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
