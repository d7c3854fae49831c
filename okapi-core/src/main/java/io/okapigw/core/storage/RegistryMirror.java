package io.okapigw.core.storage;

import io.okapigw.core.registry.DeploymentDescriptor;
import io.okapigw.core.registry.ModuleDescriptor;
import io.okapigw.core.registry.RegistryStore;
import io.okapigw.core.registry.TenantDescriptor;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Optional;
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
 * <p>Another node's changes reach memory through {@link #refresh()}, which the routing tables and
 * the timers call before they read the registry after a change is announced; a refresh that fails
 * (the database away) keeps the copy there is. Changes are made one at a time under the registry's
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

  /** Reads every module, tenant, enablement and instance into a new in-memory store. */
  private static Future<RegistryStore> copyOf(RegistryStore database) {
    RegistryStore copy = RegistryStore.inMemory();
    return Future.all(database.modules(), database.tenants(), database.deployments())
        .compose(
            all -> {
              List<ModuleDescriptor> modules = all.resultAt(0);
              List<TenantDescriptor> tenants = all.resultAt(1);
              List<DeploymentDescriptor> deployments = all.resultAt(2);
              modules.forEach(copy::insertModule);
              tenants.forEach(copy::insertTenant);
              deployments.forEach(copy::insertDeployment);
              return Future.all(
                  tenants.stream()
                      .map(
                          t ->
                              database
                                  .enabledModules(t.id())
                                  .compose(ids -> copy.setEnabledModules(t.id(), ids)))
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
