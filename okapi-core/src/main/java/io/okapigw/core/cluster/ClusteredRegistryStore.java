package io.okapigw.core.cluster;

import io.okapigw.core.registry.DeploymentDescriptor;
import io.okapigw.core.registry.ModuleDescriptor;
import io.okapigw.core.registry.RegistryStore;
import io.okapigw.core.registry.TenantDescriptor;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.shareddata.AsyncMap;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The registry in cluster-wide maps (Vert.x async maps, Hazelcast IMaps when clustered): every node
 * reads and writes the same entries, which survive the loss of a node (one backup each).
 */
public final class ClusteredRegistryStore implements RegistryStore {

  private final AsyncMap<String, JsonObject> modules;
  private final AsyncMap<String, JsonObject> tenants;
  private final AsyncMap<String, JsonArray> enabled;
  private final AsyncMap<String, JsonObject> deployments;
  private final AsyncMap<String, JsonObject> jobs;

  private ClusteredRegistryStore(List<AsyncMap<?, ?>> maps) {
    this.modules = cast(maps.get(0));
    this.tenants = cast(maps.get(1));
    this.enabled = cast(maps.get(2));
    this.deployments = cast(maps.get(3));
    this.jobs = cast(maps.get(4));
  }

  @SuppressWarnings("unchecked")
  private static <V> AsyncMap<String, V> cast(AsyncMap<?, ?> map) {
    return (AsyncMap<String, V>) map;
  }

  /**
   * @return the store on the cluster's maps {@code okapigw.registry.*}
   */
  public static Future<RegistryStore> create(Vertx vertx) {
    var data = vertx.sharedData();
    return Future.all(
            data.getAsyncMap("okapigw.registry.modules"),
            data.getAsyncMap("okapigw.registry.tenants"),
            data.getAsyncMap("okapigw.registry.enabled"),
            data.getAsyncMap("okapigw.registry.deployments"),
            data.getAsyncMap("okapigw.registry.install-jobs"))
        .map(all -> new ClusteredRegistryStore(all.list()));
  }

  @Override
  public Future<Boolean> insertModule(ModuleDescriptor module) {
    return modules.putIfAbsent(module.id(), module.toJson()).map(old -> old == null);
  }

  @Override
  public Future<Optional<ModuleDescriptor>> module(String id) {
    return modules.get(id).map(json -> Optional.ofNullable(json).map(ModuleDescriptor::fromJson));
  }

  @Override
  public Future<List<ModuleDescriptor>> modules() {
    return modules
        .values()
        .map(
            all ->
                all.stream()
                    .map(ModuleDescriptor::fromJson)
                    .sorted(Comparator.comparing(ModuleDescriptor::id))
                    .toList());
  }

  @Override
  public Future<Boolean> deleteModule(String id) {
    return modules.remove(id).map(old -> old != null);
  }

  @Override
  public Future<Boolean> insertTenant(TenantDescriptor tenant) {
    return tenants.putIfAbsent(tenant.id(), tenant.toJson()).map(old -> old == null);
  }

  @Override
  public Future<Boolean> updateTenant(TenantDescriptor tenant) {
    return tenants.replace(tenant.id(), tenant.toJson()).map(old -> old != null);
  }

  @Override
  public Future<Optional<TenantDescriptor>> tenant(String id) {
    return tenants
        .get(id)
        .map(json -> Optional.ofNullable(json).map(j -> TenantDescriptor.fromJson(j, id)));
  }

  @Override
  public Future<List<TenantDescriptor>> tenants() {
    return tenants
        .entries()
        .map(
            all ->
                all.entrySet().stream()
                    .map(e -> TenantDescriptor.fromJson(e.getValue(), e.getKey()))
                    .sorted(Comparator.comparing(TenantDescriptor::id))
                    .toList());
  }

  @Override
  public Future<Boolean> deleteTenant(String id) {
    return enabled
        .remove(id)
        .compose(v -> jobs.keys())
        .compose(
            keys ->
                Future.all(
                    keys.stream().filter(k -> k.startsWith(id + "/")).map(jobs::remove).toList()))
        .compose(v -> tenants.remove(id))
        .map(old -> old != null);
  }

  @Override
  public Future<List<String>> enabledModules(String tenant) {
    return enabled
        .get(tenant)
        .map(
            ids -> ids == null ? List.<String>of() : ids.stream().map(String.class::cast).toList());
  }

  /** Two reads of the cluster's maps, however many tenants there are. */
  @Override
  public Future<Map<String, List<String>>> allEnabledModules() {
    return Future.all(tenants.keys(), enabled.entries())
        .map(
            all -> {
              Map<String, JsonArray> lists = all.resultAt(1);
              Map<String, List<String>> found = new TreeMap<>();
              all.<Set<String>>resultAt(0)
                  .forEach(
                      id -> {
                        JsonArray ids = lists.get(id);
                        found.put(
                            id,
                            ids == null
                                ? List.of()
                                : ids.stream().map(String.class::cast).toList());
                      });
              return found;
            });
  }

  @Override
  public Future<Void> setEnabledModules(String tenant, List<String> moduleIds) {
    return enabled.put(tenant, new JsonArray(List.copyOf(moduleIds)));
  }

  @Override
  public Future<Boolean> insertDeployment(DeploymentDescriptor d) {
    return deployments.putIfAbsent(key(d.srvcId(), d.instId()), d.toJson()).map(old -> old == null);
  }

  @Override
  public Future<List<DeploymentDescriptor>> deployments() {
    return deployments
        .values()
        .map(
            all ->
                all.stream()
                    .map(DeploymentDescriptor::stored)
                    .sorted(DeploymentDescriptor.ORDER)
                    .toList());
  }

  @Override
  public Future<Integer> deleteDeployments(String srvcId, String instId) {
    if (instId != null) {
      return deployments.remove(key(srvcId, instId)).map(old -> old == null ? 0 : 1);
    }
    return deployments
        .entries()
        .compose(
            all -> {
              List<String> keys =
                  all.entrySet().stream()
                      .filter(e -> srvcId.equals(e.getValue().getString("srvcId")))
                      .map(Map.Entry::getKey)
                      .toList();
              return Future.all(keys.stream().map(deployments::remove).toList()).map(keys.size());
            });
  }

  private static String key(String srvcId, String instId) {
    return srvcId + "/" + instId;
  }

  @Override
  public Future<Void> putInstallJob(String tenant, String jobId, JsonObject job) {
    return jobs.put(key(tenant, jobId), job);
  }

  @Override
  public Future<Optional<JsonObject>> installJob(String tenant, String jobId) {
    return jobs.get(key(tenant, jobId)).map(Optional::ofNullable);
  }

  @Override
  public Future<List<JsonObject>> installJobs(String tenant) {
    return jobs.entries()
        .map(
            all ->
                all.entrySet().stream()
                    .filter(e -> e.getKey().startsWith(tenant + "/"))
                    .map(Map.Entry::getValue)
                    .toList());
  }

  @Override
  public Future<Boolean> deleteInstallJob(String tenant, String jobId) {
    return jobs.remove(key(tenant, jobId)).map(old -> old != null);
  }
}
