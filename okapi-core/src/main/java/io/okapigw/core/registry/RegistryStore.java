package io.okapigw.core.registry;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Where the registry lives: modules, tenants, per-tenant enablement and discovery. Every method is
 * asynchronous so cluster-wide maps or a database plug in without touching routing or proxy code.
 * Implementations need not enforce business rules (that is {@link Registry}'s job) but the {@code
 * insert*} methods are atomic put-if-absent.
 */
public interface RegistryStore {

  /**
   * @return an empty store held in this JVM's memory
   */
  static RegistryStore inMemory() {
    return new InMemoryRegistryStore();
  }

  /**
   * Re-reads what this store keeps in memory from where the registry lives, for a reader about to
   * read it all after another node announced a change. A store that keeps no copy does nothing; one
   * that cannot re-read now keeps its copy (and logs why).
   *
   * @return done
   */
  default Future<Void> refresh() {
    return Future.succeededFuture();
  }

  /**
   * Re-reads, of what this store keeps in memory, what another node's change touched: the tenants
   * {@code scope} names (entry and enabled modules) and the modules it names (descriptor and
   * instances), not the whole registry. A scope of everything is {@link #refresh()}.
   *
   * @return done
   */
  default Future<Void> refresh(ChangeScope scope) {
    return refresh();
  }

  /**
   * @param modules module ids
   * @return the ids of the tenants that enable one of {@code modules}, ordered by id; a store that
   *     keeps no index reads every tenant's enabled modules
   */
  default Future<Set<String>> tenantsEnabling(Set<String> modules) {
    if (modules.isEmpty()) {
      return Future.succeededFuture(Set.of());
    }
    return allEnabledModules()
        .map(
            all -> {
              Set<String> found = new TreeSet<>();
              all.forEach(
                  (tenant, ids) -> {
                    if (ids.stream().anyMatch(modules::contains)) {
                      found.add(tenant);
                    }
                  });
              return found;
            });
  }

  /**
   * @return every tenant's enabled module ids (a tenant with none: an empty list), by tenant id in
   *     the store's order; where the store can, in one read
   */
  default Future<Map<String, List<String>>> allEnabledModules() {
    return tenants()
        .compose(
            tenants ->
                Future.all(tenants.stream().map(t -> enabledModules(t.id())).toList())
                    .map(
                        lists -> {
                          Map<String, List<String>> all = new LinkedHashMap<>();
                          for (int i = 0; i < tenants.size(); i++) {
                            all.put(tenants.get(i).id(), lists.<List<String>>resultAt(i));
                          }
                          return all;
                        }));
  }

  /**
   * @return {@code true} if inserted, {@code false} if a module with that id exists
   */
  Future<Boolean> insertModule(ModuleDescriptor module);

  Future<Optional<ModuleDescriptor>> module(String id);

  /**
   * @return all modules, ordered by id
   */
  Future<List<ModuleDescriptor>> modules();

  /**
   * @return whether a module was removed
   */
  Future<Boolean> deleteModule(String id);

  /**
   * Puts the module in the place of the one with its id, or adds it; where the store can, as one
   * change (readers see the old descriptor or the new, never none).
   */
  default Future<Void> putModule(ModuleDescriptor module) {
    return deleteModule(module.id()).compose(v -> insertModule(module)).mapEmpty();
  }

  /**
   * @return {@code true} if inserted, {@code false} if a tenant with that id exists
   */
  Future<Boolean> insertTenant(TenantDescriptor tenant);

  /**
   * @return {@code true} if replaced, {@code false} if there is no such tenant
   */
  Future<Boolean> updateTenant(TenantDescriptor tenant);

  Future<Optional<TenantDescriptor>> tenant(String id);

  /**
   * @return all tenants, ordered by id
   */
  Future<List<TenantDescriptor>> tenants();

  /**
   * Removes the tenant, its enablements and its install jobs.
   *
   * @return whether a tenant was removed
   */
  Future<Boolean> deleteTenant(String id);

  /**
   * @return the ids of the modules enabled for the tenant, in enable order (empty if none)
   */
  Future<List<String>> enabledModules(String tenant);

  /** Replaces the tenant's list of enabled module ids. */
  Future<Void> setEnabledModules(String tenant, List<String> moduleIds);

  /**
   * @return {@code true} if inserted, {@code false} if that srvcId/instId exists (in PostgreSQL,
   *     Okapi's table: if that instId exists, of any module)
   */
  Future<Boolean> insertDeployment(DeploymentDescriptor deployment);

  /**
   * @return all deployments, ordered by srvcId then instId
   */
  Future<List<DeploymentDescriptor>> deployments();

  /**
   * Removes one instance, or every instance of the module if {@code instId} is {@code null}.
   *
   * @return how many were removed
   */
  Future<Integer> deleteDeployments(String srvcId, String instId);

  /**
   * Puts {@code deployment} in the place of the instance of its srvcId and instId (a restarted
   * module's new URL); where the store can, as one change, so that readers see the old instance or
   * the new, never none.
   *
   * @return {@code false} if there was no such instance
   */
  default Future<Boolean> replaceDeployment(DeploymentDescriptor deployment) {
    return deleteDeployments(deployment.srvcId(), deployment.instId())
        .compose(n -> n == 0 ? Future.succeededFuture(false) : insertDeployment(deployment));
  }

  /**
   * Stores an install job of a tenant, replacing the one with that id: where it is (every node
   * reads the same), so any node can report a job, and one whose node died can be told apart.
   */
  Future<Void> putInstallJob(String tenant, String jobId, JsonObject job);

  Future<Optional<JsonObject>> installJob(String tenant, String jobId);

  /**
   * @return the tenant's install jobs, in no particular order
   */
  Future<List<JsonObject>> installJobs(String tenant);

  /**
   * @return whether a job was removed
   */
  Future<Boolean> deleteInstallJob(String tenant, String jobId);
}
