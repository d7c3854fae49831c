package io.okapigw.core.registry;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ConcurrentSkipListSet;

/**
 * The registry in this JVM's memory: what {@code ./gateway dev} uses, and the copy a PostgreSQL
 * registry keeps. The tenants enabling each module are indexed, so a module's change finds them
 * without reading every tenant's list.
 */
final class InMemoryRegistryStore implements RegistryStore {

  private final Map<String, ModuleDescriptor> modules = new ConcurrentSkipListMap<>();
  private final Map<String, TenantDescriptor> tenants = new ConcurrentSkipListMap<>();
  private final Map<String, List<String>> enabled = new ConcurrentHashMap<>();
  private final Map<String, DeploymentDescriptor> deployments = new ConcurrentSkipListMap<>();
  private final Map<String, Map<String, JsonObject>> jobs = new ConcurrentHashMap<>();

  /** Module id to the ids of the tenants enabling it. */
  private final Map<String, Set<String>> users = new ConcurrentHashMap<>();

  @Override
  public Future<Boolean> insertModule(ModuleDescriptor module) {
    return Future.succeededFuture(modules.putIfAbsent(module.id(), module) == null);
  }

  @Override
  public Future<Optional<ModuleDescriptor>> module(String id) {
    return Future.succeededFuture(Optional.ofNullable(modules.get(id)));
  }

  @Override
  public Future<List<ModuleDescriptor>> modules() {
    return Future.succeededFuture(List.copyOf(modules.values()));
  }

  @Override
  public Future<Boolean> deleteModule(String id) {
    return Future.succeededFuture(modules.remove(id) != null);
  }

  @Override
  public Future<Void> putModule(ModuleDescriptor module) {
    modules.put(module.id(), module);
    return Future.succeededFuture();
  }

  @Override
  public Future<Boolean> insertTenant(TenantDescriptor tenant) {
    return Future.succeededFuture(tenants.putIfAbsent(tenant.id(), tenant) == null);
  }

  @Override
  public Future<Boolean> updateTenant(TenantDescriptor tenant) {
    return Future.succeededFuture(tenants.replace(tenant.id(), tenant) != null);
  }

  @Override
  public Future<Optional<TenantDescriptor>> tenant(String id) {
    return Future.succeededFuture(Optional.ofNullable(tenants.get(id)));
  }

  @Override
  public Future<List<TenantDescriptor>> tenants() {
    return Future.succeededFuture(List.copyOf(tenants.values()));
  }

  @Override
  public synchronized Future<Boolean> deleteTenant(String id) {
    index(id, enabled.remove(id), List.of());
    jobs.remove(id);
    return Future.succeededFuture(tenants.remove(id) != null);
  }

  @Override
  public Future<List<String>> enabledModules(String tenant) {
    return Future.succeededFuture(enabled.getOrDefault(tenant, List.of()));
  }

  @Override
  public synchronized Future<Void> setEnabledModules(String tenant, List<String> moduleIds) {
    List<String> after = List.copyOf(moduleIds);
    index(tenant, enabled.put(tenant, after), after);
    return Future.succeededFuture();
  }

  /** Keeps {@link #users} true to a tenant's change from {@code before} to {@code after}. */
  private synchronized void index(String tenant, List<String> before, List<String> after) {
    if (before != null) {
      for (String id : before) {
        if (!after.contains(id)) {
          users.computeIfPresent(
              id,
              (m, tenants) -> {
                tenants.remove(tenant);
                return tenants.isEmpty() ? null : tenants;
              });
        }
      }
    }
    for (String id : after) {
      users.computeIfAbsent(id, m -> new ConcurrentSkipListSet<>()).add(tenant);
    }
  }

  @Override
  public Future<Set<String>> tenantsEnabling(Set<String> modules) {
    Set<String> found = new TreeSet<>();
    for (String id : modules) {
      found.addAll(users.getOrDefault(id, Set.of()));
    }
    return Future.succeededFuture(found);
  }

  @Override
  public Future<Map<String, List<String>>> allEnabledModules() {
    Map<String, List<String>> all = new LinkedHashMap<>();
    tenants.keySet().forEach(id -> all.put(id, enabled.getOrDefault(id, List.of())));
    return Future.succeededFuture(all);
  }

  @Override
  public Future<Boolean> insertDeployment(DeploymentDescriptor deployment) {
    return Future.succeededFuture(
        deployments.putIfAbsent(key(deployment.srvcId(), deployment.instId()), deployment) == null);
  }

  @Override
  public Future<List<DeploymentDescriptor>> deployments() {
    List<DeploymentDescriptor> all = new ArrayList<>(deployments.values());
    all.sort(DeploymentDescriptor.ORDER);
    return Future.succeededFuture(all);
  }

  @Override
  public Future<Integer> deleteDeployments(String srvcId, String instId) {
    List<String> keys =
        deployments.values().stream()
            .filter(d -> d.srvcId().equals(srvcId) && (instId == null || d.instId().equals(instId)))
            .map(d -> key(d.srvcId(), d.instId()))
            .toList();
    keys.forEach(deployments::remove);
    return Future.succeededFuture(keys.size());
  }

  @Override
  public Future<Boolean> replaceDeployment(DeploymentDescriptor deployment) {
    return Future.succeededFuture(
        deployments.replace(key(deployment.srvcId(), deployment.instId()), deployment) != null);
  }

  private static String key(String srvcId, String instId) {
    return srvcId + '\u0000' + instId;
  }

  @Override
  public Future<Void> putInstallJob(String tenant, String jobId, JsonObject job) {
    jobs.computeIfAbsent(tenant, t -> new ConcurrentHashMap<>()).put(jobId, job.copy());
    return Future.succeededFuture();
  }

  @Override
  public Future<Optional<JsonObject>> installJob(String tenant, String jobId) {
    return Future.succeededFuture(
        Optional.ofNullable(jobs.getOrDefault(tenant, Map.of()).get(jobId)).map(JsonObject::copy));
  }

  @Override
  public Future<List<JsonObject>> installJobs(String tenant) {
    return Future.succeededFuture(
        jobs.getOrDefault(tenant, Map.of()).values().stream().map(JsonObject::copy).toList());
  }

  @Override
  public Future<Boolean> deleteInstallJob(String tenant, String jobId) {
    return Future.succeededFuture(
        jobs.getOrDefault(tenant, new ConcurrentHashMap<>()).remove(jobId) != null);
  }
}
