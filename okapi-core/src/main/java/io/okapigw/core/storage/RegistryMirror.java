package io.okapigw.core.storage;

import io.okapigw.core.registry.ChangeScope;
import io.okapigw.core.registry.DeploymentDescriptor;
import io.okapigw.core.registry.ModuleDescriptor;
import io.okapigw.core.registry.RegistryStore;
import io.okapigw.core.registry.TenantDescriptor;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The registry of a PostgreSQL database, held in memory as Okapi holds it: modules, tenants, their
 * enabled modules and discovery are read from memory, so the admin API's reads (Stripes' discovery
 * call {@code /_/proxy/tenants/{t}/modules?full=true} among them), the routing tables and the
 * timers go on while the database is away. A write goes to the database first and, once committed,
 * to memory; while the database is away it fails with a 503 naming it ({@link DatabaseFailures}).
 *
 * <p>Another node's changes reach memory through {@link #refresh(ChangeScope)}, which the routing
 * tables and the timers call before they read the registry after a change is announced: the rows of
 * the tenants and modules the change touched are re-read, not the whole registry (every row only at
 * start and when a node may have missed changes, {@link #refresh()}); a refresh that fails (the
 * database away) keeps the copy there is. Changes are made one at a time under the registry's
 * cluster-wide lock, which their announcements and refreshes hold too, so a write-through never
 * races a refresh. Install jobs, which every node writes and reads, are read from the database;
 * while it is away this node's own from memory.
 */
final class RegistryMirror implements RegistryStore {

  private static final Logger log = LoggerFactory.getLogger(RegistryMirror.class);

  private final RegistryStore database;
  private final String where;
  private volatile RegistryStore memory;
  private Future<Void> lastRefresh = Future.succeededFuture();

  private RegistryMirror(RegistryStore database, String where, RegistryStore memory) {
    this.database = database;
    this.where = where;
    this.memory = memory;
  }

  /**
   * @param database the registry in PostgreSQL
   * @param where the database ({@code host:port/db}), for messages
   * @return the mirror, once the registry is read
   */
  static Future<RegistryStore> load(RegistryStore database, String where) {
    return copyOf(database).map(memory -> new RegistryMirror(database, where, memory));
  }

  /**
   * Reads every module, tenant, enablement and instance into a new in-memory store: four reads,
   * however many tenants there are.
   */
  private static Future<RegistryStore> copyOf(RegistryStore database) {
    RegistryStore copy = RegistryStore.inMemory();
    return Future.all(
            database.modules(),
            database.tenants(),
            database.deployments(),
            database.allEnabledModules())
        .compose(
            all -> {
              List<ModuleDescriptor> modules = all.resultAt(0);
              List<TenantDescriptor> tenants = all.resultAt(1);
              List<DeploymentDescriptor> deployments = all.resultAt(2);
              Map<String, List<String>> enabled = all.resultAt(3);
              modules.forEach(copy::insertModule);
              tenants.forEach(copy::insertTenant);
              deployments.forEach(copy::insertDeployment);
              return Future.all(
                  tenants.stream()
                      .map(
                          t ->
                              copy.setEnabledModules(
                                  t.id(), enabled.getOrDefault(t.id(), List.of())))
                      .toList());
            })
        .map(copy);
  }

  @Override
  public synchronized Future<Void> refresh() {
    lastRefresh =
        lastRefresh.transform(
            ignored ->
                copyOf(database)
                    .<Void>map(
                        copy -> {
                          memory = copy;
                          return null;
                        })
                    .recover(
                        e -> {
                          log.warn(
                              "storage: cannot re-read the registry from PostgreSQL at {} ({});"
                                  + " serving the copy in memory",
                              where,
                              DatabaseFailures.mapped(e, where).getMessage());
                          return Future.succeededFuture();
                        }));
    return lastRefresh;
  }

  /**
   * Re-reads the rows {@code scope} names into the copy in memory: each tenant's entry and enabled
   * modules (gone from memory if gone from the database), each module's descriptor and, if it names
   * a module, the instances of those modules. One refresh at a time, after the ones before.
   */
  @Override
  public synchronized Future<Void> refresh(ChangeScope scope) {
    if (scope.everything()) {
      return refresh();
    }
    if (scope.isEmpty()) {
      return lastRefresh;
    }
    lastRefresh =
        lastRefresh.transform(
            ignored ->
                Future.all(
                        Future.all(scope.tenants().stream().map(this::refreshTenant).toList()),
                        Future.all(scope.modules().stream().map(this::refreshModule).toList()),
                        refreshInstances(scope.modules()))
                    .<Void>mapEmpty()
                    .recover(
                        e -> {
                          log.warn(
                              "storage: cannot re-read {} from PostgreSQL at {} ({}); serving the"
                                  + " copy in memory",
                              scope.toJson().encode(),
                              where,
                              DatabaseFailures.mapped(e, where).getMessage());
                          return Future.succeededFuture();
                        }));
    return lastRefresh;
  }

  private Future<Void> refreshTenant(String id) {
    RegistryStore copy = memory;
    return Future.all(database.tenant(id), database.enabledModules(id))
        .compose(
            read -> {
              Optional<TenantDescriptor> tenant = read.resultAt(0);
              if (tenant.isEmpty()) {
                return copy.deleteTenant(id).mapEmpty();
              }
              List<String> enabled = read.resultAt(1);
              return copy.updateTenant(tenant.get())
                  .compose(
                      found -> found ? Future.succeededFuture() : copy.insertTenant(tenant.get()))
                  .compose(v -> copy.setEnabledModules(id, enabled));
            });
  }

  private Future<Void> refreshModule(String id) {
    RegistryStore copy = memory;
    return database
        .module(id)
        .compose(m -> m.isPresent() ? copy.putModule(m.get()) : copy.deleteModule(id).mapEmpty());
  }

  /**
   * The instances of {@code modules} as the database has them (the table of instances is small).
   */
  private Future<Void> refreshInstances(Set<String> modules) {
    if (modules.isEmpty()) {
      return Future.succeededFuture();
    }
    RegistryStore copy = memory;
    return Future.all(database.deployments(), copy.deployments())
        .compose(
            read -> {
              List<DeploymentDescriptor> stored = read.resultAt(0);
              List<DeploymentDescriptor> held = read.resultAt(1);
              List<Future<?>> steps = new ArrayList<>();
              for (DeploymentDescriptor d : held) {
                if (modules.contains(d.srvcId())
                    && stored.stream()
                        .noneMatch(
                            s -> s.srvcId().equals(d.srvcId()) && s.instId().equals(d.instId()))) {
                  steps.add(copy.deleteDeployments(d.srvcId(), d.instId()));
                }
              }
              for (DeploymentDescriptor d : stored) {
                if (modules.contains(d.srvcId())) {
                  steps.add(
                      copy.replaceDeployment(d)
                          .compose(
                              found ->
                                  found ? Future.succeededFuture(true) : copy.insertDeployment(d)));
                }
              }
              return Future.all(steps).<Void>mapEmpty();
            });
  }

  /**
   * Writes to the database, then, once committed, the same to memory, unless the database changed
   * nothing (an insert refused, a delete of nothing: {@code false}); answers the database's.
   */
  private <T> Future<T> write(Function<RegistryStore, Future<T>> change) {
    return DatabaseFailures.mapped(change.apply(database), where)
        .compose(
            result ->
                Boolean.FALSE.equals(result)
                    ? Future.succeededFuture(result)
                    : change.apply(memory).map(result));
  }

  @Override
  public Future<Boolean> insertModule(ModuleDescriptor module) {
    return write(store -> store.insertModule(module));
  }

  @Override
  public Future<Optional<ModuleDescriptor>> module(String id) {
    return memory.module(id);
  }

  @Override
  public Future<List<ModuleDescriptor>> modules() {
    return memory.modules();
  }

  @Override
  public Future<Boolean> deleteModule(String id) {
    return write(store -> store.deleteModule(id));
  }

  @Override
  public Future<Boolean> insertTenant(TenantDescriptor tenant) {
    return write(store -> store.insertTenant(tenant));
  }

  @Override
  public Future<Boolean> updateTenant(TenantDescriptor tenant) {
    return write(store -> store.updateTenant(tenant));
  }

  @Override
  public Future<Optional<TenantDescriptor>> tenant(String id) {
    return memory.tenant(id);
  }

  @Override
  public Future<List<TenantDescriptor>> tenants() {
    return memory.tenants();
  }

  @Override
  public Future<Boolean> deleteTenant(String id) {
    return write(store -> store.deleteTenant(id));
  }

  @Override
  public Future<List<String>> enabledModules(String tenant) {
    return memory.enabledModules(tenant);
  }

  @Override
  public Future<Set<String>> tenantsEnabling(Set<String> modules) {
    return memory.tenantsEnabling(modules);
  }

  @Override
  public Future<Map<String, List<String>>> allEnabledModules() {
    return memory.allEnabledModules();
  }

  @Override
  public Future<Void> setEnabledModules(String tenant, List<String> moduleIds) {
    return write(store -> store.setEnabledModules(tenant, moduleIds));
  }

  @Override
  public Future<Boolean> insertDeployment(DeploymentDescriptor deployment) {
    return write(store -> store.insertDeployment(deployment));
  }

  @Override
  public Future<List<DeploymentDescriptor>> deployments() {
    return memory.deployments();
  }

  @Override
  public Future<Integer> deleteDeployments(String srvcId, String instId) {
    return write(store -> store.deleteDeployments(srvcId, instId));
  }

  @Override
  public Future<Boolean> replaceDeployment(DeploymentDescriptor deployment) {
    return write(store -> store.replaceDeployment(deployment));
  }

  @Override
  public Future<Void> putInstallJob(String tenant, String jobId, JsonObject job) {
    return write(store -> store.putInstallJob(tenant, jobId, job));
  }

  @Override
  public Future<Optional<JsonObject>> installJob(String tenant, String jobId) {
    return fromDatabase(store -> store.installJob(tenant, jobId));
  }

  @Override
  public Future<List<JsonObject>> installJobs(String tenant) {
    return fromDatabase(store -> store.installJobs(tenant));
  }

  @Override
  public Future<Boolean> deleteInstallJob(String tenant, String jobId) {
    return write(store -> store.deleteInstallJob(tenant, jobId));
  }

  /** Every node's from the database; while it is away, this node's from memory. */
  private <T> Future<T> fromDatabase(Function<RegistryStore, Future<T>> read) {
    return read.apply(database)
        .recover(
            e ->
                DatabaseFailures.unavailable(e)
                    ? read.apply(memory)
                    : Future.failedFuture(DatabaseFailures.mapped(e, where)));
  }
}
