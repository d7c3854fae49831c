package io.okapigw.core.registry;

import io.okapigw.core.http.HttpError;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The modules enabled for each tenant: reading them, checking one change against Okapi's dependency
 * rules, and committing a change once its modules were told (see the install package, which runs
 * the calls in between). A commit rebuilds routing and drops the tenant's cached auth decisions
 * (its permission sets may have changed) before it completes.
 */
public final class TenantModules {

  private final RegistryStore store;
  private final Mutations mutations;

  TenantModules(RegistryStore store, Mutations mutations) {
    this.store = store;
    this.mutations = mutations;
  }

  /**
   * @return the modules enabled for the tenant, in enable order; 404 if the tenant is unknown
   */
  public Future<List<ModuleDescriptor>> enabled(String tenant) {
    return existingTenant(tenant).compose(v -> enabledModules(tenant));
  }

  /**
   * Checks one change against the tenant's modules now: {@code to} must not be enabled already and
   * must find every interface it requires, without clashing with another provider; {@code from}
   * must be enabled, and nothing left may need what only it provided.
   *
   * @param fromId the module disabled or upgraded from; null when enabling
   * @param to the module enabled or upgraded to; null when disabling
   * @return the tenant's modules now; failed 404 (unknown tenant, {@code from} not enabled) or 400
   *     naming the rule broken
   */
  public Future<List<ModuleDescriptor>> check(String tenant, String fromId, ModuleDescriptor to) {
    return enabled(tenant)
        .map(
            current -> {
              Optional<ModuleDescriptor> from =
                  Optional.ofNullable(fromId)
                      .map(
                          id ->
                              current.stream()
                                  .filter(m -> m.id().equals(id))
                                  .findFirst()
                                  .orElseThrow(() -> notEnabled(id, tenant)));
              if (from.isPresent() && to == null) {
                refuseOkapiModule(tenant, fromId);
              }
              List<ModuleDescriptor> after = new ArrayList<>(current);
              from.ifPresent(after::remove);
              if (to != null) {
                if (after.stream().anyMatch(m -> m.id().equals(to.id()))) {
                  throw HttpError.badRequest(
                      "module " + to.id() + " is already enabled for tenant " + tenant);
                }
                after.add(to);
                Dependencies.checkEnable(tenant, to, after);
              }
              from.ifPresent(m -> Dependencies.checkDisable(tenant, m, after));
              return current;
            });
  }

  /**
   * Records one change: {@code to} takes {@code from}'s place in the enable order (an upgrade), is
   * added last (an enable), or {@code from} goes (a disable).
   *
   * @return done once routing reflects it on every node; failed 404 for an unknown tenant, 409 if
   *     the tenant's modules changed meanwhile so that {@code from} is gone or {@code to} is there,
   *     400 for the supertenant's okapi module
   */
  public Future<Void> commit(String tenant, String fromId, String toId) {
    if (toId == null) {
      refuseOkapiModule(tenant, fromId);
    }
    return mutations.run(
        () ->
            existingTenant(tenant)
                .compose(
                    v ->
                        toId == null
                            ? Future.succeededFuture()
                            : store
                                .module(toId)
                                .map(
                                    m -> {
                                      if (m.isEmpty()) {
                                        throw new HttpError(
                                            409, "module " + toId + " was removed meanwhile");
                                      }
                                      return null;
                                    }))
                .compose(v -> store.enabledModules(tenant))
                .compose(
                    ids -> store.setEnabledModules(tenant, changed(tenant, ids, fromId, toId))),
        v -> ChangeScope.tenants(tenant),
        v -> Future.succeededFuture(Set.of(tenant)));
  }

  private static List<String> changed(String tenant, List<String> ids, String fromId, String toId) {
    List<String> after = new ArrayList<>(ids);
    if (fromId != null && !after.contains(fromId)) {
      throw new HttpError(409, "module " + fromId + " is no longer enabled for tenant " + tenant);
    }
    if (toId != null && !toId.equals(fromId) && after.contains(toId)) {
      throw new HttpError(
          409, "module " + toId + " was enabled for tenant " + tenant + " meanwhile");
    }
    if (fromId != null && toId != null) {
      after.set(after.indexOf(fromId), toId);
    } else if (toId != null) {
      after.add(toId);
    } else {
      after.remove(fromId);
    }
    return after;
  }

  private static void refuseOkapiModule(String tenant, String moduleId) {
    if (TenantDescriptor.SUPERTENANT.equals(tenant) && isOkapiModule(moduleId)) {
      throw HttpError.badRequest(
          "cannot disable "
              + moduleId
              + " for the supertenant: the"
              + " admin API is its interface");
    }
  }

  private static HttpError notEnabled(String moduleId, String tenant) {
    return HttpError.notFound("module " + moduleId + " is not enabled for tenant " + tenant);
  }

  /**
   * @return whether the id is of a gateway's built-in okapi module ({@code okapi-<version>})
   */
  public static boolean isOkapiModule(String moduleId) {
    return moduleId.startsWith("okapi-");
  }

  /**
   * @return ids of the tenants that have the module enabled
   */
  public Future<List<String>> tenantsUsing(String moduleId) {
    return tenantsUsing(store, Set.of(moduleId));
  }

  /**
   * @param store the registry
   * @param modules module ids
   * @return ids of the tenants that enable one of {@code modules}, ordered by id (the store's index
   *     where it keeps one: no tenant's list read, no descriptor)
   */
  public static Future<List<String>> tenantsUsing(RegistryStore store, Set<String> modules) {
    return store.tenantsEnabling(modules).map(List::copyOf);
  }

  private Future<Void> existingTenant(String tenant) {
    return store
        .tenant(tenant)
        .map(
            t -> {
              if (t.isEmpty()) {
                throw Registry.unknownTenant(tenant);
              }
              return null;
            });
  }

  private Future<List<ModuleDescriptor>> enabledModules(String tenant) {
    return store
        .enabledModules(tenant)
        .compose(ids -> Future.all(ids.stream().map(store::module).toList()))
        .map(
            all ->
                all.<Optional<ModuleDescriptor>>list().stream().flatMap(Optional::stream).toList());
  }
}
