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
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every tenant's compiled routing table, held in memory. Requests read the current snapshot with no
 * registry access; {@link #rebuild()} replaces it after a registry change (an event, never a
 * timer).
 *
 * <p>Fails closed: a tenant is never routed without its auth filter because this node's copy of the
 * registry is incomplete. A tenant with a module enabled whose descriptor this node cannot read (a
 * node cut off from its cluster sees only the map entries it held) gets a table answering 503; so,
 * while the node sees only part of its cluster ({@code partialView}), does a tenant whose last
 * table built from the whole registry had an auth filter and whose new one has none, or had routes
 * and now has none, or is gone.
 */
public final class RoutingTables {

  private static final Logger log = LoggerFactory.getLogger(RoutingTables.class);

  private final RegistryStore store;
  private final BooleanSupplier partialView;
  private final ModuleDescriptor builtIn;
  private volatile Map<String, RoutingTable> tables = Map.of();
  private Map<String, RoutingTable> trusted = Map.of();
  private Future<Void> lastRebuild = Future.succeededFuture();

  /** Tables of a node that always sees the whole registry. */
  public RoutingTables(RegistryStore store) {
    this(store, () -> false, null);
  }

  /**
   * @param partialView whether this node may now see only part of the registry (cut off from its
   *     cluster): then a tenant that had an auth filter or routes is not served without them
   * @param builtIn the module built into the gateway (the okapi module), known here whatever the
   *     store holds; its handlers that need no permission are served even to a tenant answered 503
   *     (a node's health stays readable); or null
   */
  public RoutingTables(RegistryStore store, BooleanSupplier partialView, ModuleDescriptor builtIn) {
    this.store = store;
    this.partialView = partialView;
    this.builtIn = builtIn;
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
                    .map(this::checked)
                    .onSuccess(compiled -> tables = compiled)
                    .onFailure(e -> log.error("rebuilding routing tables failed", e))
                    .mapEmpty());
    return lastRebuild;
  }

  /**
   * While the view is partial, the tables compared with the last ones built from the whole
   * registry; else these become the reference.
   */
  private Map<String, RoutingTable> checked(Map<String, RoutingTable> compiled) {
    if (!partialView.getAsBoolean()) {
      trusted = compiled;
      return compiled;
    }
    Map<String, RoutingTable> checked = new HashMap<>(compiled);
    trusted.forEach(
        (tenant, before) -> {
          String lost = lost(before, compiled.get(tenant));
          if (lost != null) {
            log.warn("tenant {} served 503 while this node is cut off: {}", tenant, lost);
            checked.put(tenant, before.unavailable(cutOff(tenant, lost), builtInId()));
          }
        });
    return Map.copyOf(checked);
  }

  private String builtInId() {
    return builtIn == null ? null : builtIn.id();
  }

  private static String lost(RoutingTable before, RoutingTable now) {
    if (now == null) {
      return "the tenant is not in this node's copy of the registry";
    }
    if (before.hasAuthFilter() && !now.hasAuthFilter()) {
      return "its auth filter is not in this node's copy of the registry";
    }
    if (before.routesAnything() && !now.routesAnything()) {
      return "its enabled modules are not in this node's copy of the registry";
    }
    return null;
  }

  private static String cutOff(String tenant, String lost) {
    return "tenant "
        + tenant
        + ": this node is cut off from its cluster and "
        + lost
        + "; send the request to another node";
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
                                      .map(ids -> compile(t, ids, modules, instances)))
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

  /**
   * The tenant's table; one answering 503 if a module enabled for it is not in the registry (never
   * the table of the modules found: the missing one may be its auth filter).
   */
  private RoutingTable compile(
      TenantDescriptor tenant,
      List<String> ids,
      Map<String, ModuleDescriptor> modules,
      Map<String, Instances> instances) {
    List<ModuleDescriptor> resolved = new ArrayList<>(ids.size());
    List<String> missing = new ArrayList<>(0);
    for (String id : ids) {
      ModuleDescriptor module = modules.get(id);
      if (module == null && builtIn != null && builtIn.id().equals(id)) {
        module = builtIn;
      }
      if (module == null) {
        missing.add(id);
      } else {
        resolved.add(module);
      }
    }
    RoutingTable table = RoutingTable.compile(tenant.id(), tenant.auth(), resolved, instances);
    if (missing.isEmpty()) {
      return table;
    }
    log.warn(
        "tenant {} served 503: modules {} enabled for it are not in this node's registry",
        tenant.id(),
        missing);
    return table.unavailable(
        "tenant "
            + tenant.id()
            + ": modules enabled for it are not in this node's copy of the registry ("
            + String.join(", ", missing)
            + "); the node may be cut off from its cluster: send the request to another node",
        builtInId());
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
