package io.okapigw.core.routing;

import io.okapigw.core.registry.AuthKind;
import io.okapigw.core.registry.DeploymentDescriptor;
import io.okapigw.core.registry.ModuleDescriptor;
import io.okapigw.core.registry.RegistryStore;
import io.okapigw.core.registry.TenantDescriptor;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every tenant's compiled routing table, held in memory. Requests read the current snapshot with no
 * registry access; {@link #rebuild()} replaces it after a registry change (an event, never a
 * timer).
 */
public final class RoutingTables {

  private static final Logger log = LoggerFactory.getLogger(RoutingTables.class);

  private final RegistryStore store;
  private volatile Map<String, RoutingTable> tables = Map.of();
  private Future<Void> lastRebuild = Future.succeededFuture();

  public RoutingTables(RegistryStore store) {
    this.store = store;
  }

  /**
   * @return the tenant's table, or empty if the tenant does not exist
   */
  public Optional<RoutingTable> forTenant(String tenant) {
    return Optional.ofNullable(tables.get(tenant));
  }

  /**
   * @return the tenants whose auth is {@code kind}, now
   */
  public Set<String> tenants(AuthKind kind) {
    Set<String> found = new HashSet<>();
    tables.forEach(
        (tenant, table) -> {
          if (table.auth() == kind) {
            found.add(tenant);
          }
        });
    return found;
  }

  /**
   * Recompiles every tenant's table from the store. Rebuilds run one after another, so a slower
   * older rebuild never overwrites a newer one.
   */
  public synchronized Future<Void> rebuild() {
    lastRebuild =
        lastRebuild.transform(
            ignored ->
                compileAll()
                    .onSuccess(compiled -> tables = compiled)
                    .onFailure(e -> log.error("rebuilding routing tables failed", e))
                    .mapEmpty());
    return lastRebuild;
  }

  private Future<Map<String, RoutingTable>> compileAll() {
    return store
        .refresh()
        .compose(v -> Future.all(store.modules(), store.deployments(), store.tenants()))
        .compose(
            all -> {
              Map<String, ModuleDescriptor> modules =
                  all.<List<ModuleDescriptor>>resultAt(0).stream()
                      .collect(Collectors.toMap(ModuleDescriptor::id, Function.identity()));
              Map<String, Instances> instances = instances(all.resultAt(1));
              List<TenantDescriptor> tenants = all.resultAt(2);
              return Future.all(
                      tenants.stream()
                          .map(
                              t ->
                                  store
                                      .enabledModules(t.id())
                                      .map(
                                          ids ->
                                              RoutingTable.compile(
                                                  t.id(),
                                                  t.auth(),
                                                  resolve(ids, modules),
                                                  instances)))
                          .toList())
                  .map(
                      tablesOf -> {
                        Map<String, RoutingTable> compiled = new HashMap<>();
                        for (int i = 0; i < tenants.size(); i++) {
                          compiled.put(tenants.get(i).id(), tablesOf.resultAt(i));
                        }
                        return Map.copyOf(compiled);
                      });
            });
  }

  private static List<ModuleDescriptor> resolve(
      List<String> ids, Map<String, ModuleDescriptor> modules) {
    List<ModuleDescriptor> resolved = new ArrayList<>(ids.size());
    ids.stream().map(modules::get).filter(m -> m != null).forEach(resolved::add);
    return resolved;
  }

  private static Map<String, Instances> instances(List<DeploymentDescriptor> deployments) {
    return deployments.stream()
        .collect(
            Collectors.groupingBy(
                DeploymentDescriptor::srvcId,
                Collectors.mapping(DeploymentDescriptor::baseUrl, Collectors.toList())))
        .entrySet()
        .stream()
        .collect(Collectors.toMap(Map.Entry::getKey, e -> new Instances(e.getKey(), e.getValue())));
  }
}
