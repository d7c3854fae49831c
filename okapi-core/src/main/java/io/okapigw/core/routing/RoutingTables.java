package io.okapigw.core.routing;

import io.okapigw.core.registry.AuthKind;
import io.okapigw.core.registry.ChangeScope;
import io.okapigw.core.registry.DeploymentDescriptor;
import io.okapigw.core.registry.ModuleDescriptor;
import io.okapigw.core.registry.RegistryStore;
import io.okapigw.core.registry.TenantDescriptor;
import io.vertx.core.CompositeFuture;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every tenant's compiled routing table, held in memory. Requests read the current snapshot (an
 * immutable map, swapped whole) with no registry access; {@link #apply} recompiles, after a
 * registry change (an event, never a timer), only the tables the change touched: a tenant's own
 * entries, that tenant's; a module's descriptor or instances, the tables of the tenants that enable
 * it. Tables are compiled off the event loop (a worker of their own), one build at a time; changes
 * that arrive while a build runs are applied together by the next one, and requests are served from
 * the last complete snapshot meanwhile.
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
  private final Compiler compiler;
  private volatile Map<String, RoutingTable> tables = Map.of();
  private volatile Consumer<String> compiling = tenant -> {};

  // a build's own state, touched by one build at a time
  private final Map<String, RoutingTable> trusted = new HashMap<>();
  private final Map<String, List<String>> enabled = new HashMap<>();
  private final Map<String, ModuleDescriptor> descriptors = new HashMap<>();

  // the changes not yet built, and who waits for them; guarded by this
  private ChangeScope pending = ChangeScope.NONE;
  private Promise<Void> waiting;
  private boolean building;

  /** Tables of a node that always sees the whole registry, compiled on the caller's thread. */
  public RoutingTables(RegistryStore store) {
    this(store, () -> false, null);
  }

  /**
   * Tables compiled on the caller's thread (for tests and tools without a Vert.x).
   *
   * @param partialView whether this node may now see only part of the registry (cut off from its
   *     cluster): then a tenant that had an auth filter or routes is not served without them
   * @param builtIn the module built into the gateway (the okapi module), known here whatever the
   *     store holds; its handlers that need no permission are served even to a tenant answered 503
   *     (a node's health stays readable); or null
   */
  public RoutingTables(RegistryStore store, BooleanSupplier partialView, ModuleDescriptor builtIn) {
    this(store, partialView, builtIn, Compiler.INLINE);
  }

  /**
   * Tables compiled on a worker of their own ({@code okapigw-routing}, one thread), off the event
   * loops.
   *
   * @see #RoutingTables(RegistryStore, BooleanSupplier, ModuleDescriptor)
   */
  public RoutingTables(
      Vertx vertx, RegistryStore store, BooleanSupplier partialView, ModuleDescriptor builtIn) {
    this(store, partialView, builtIn, Compiler.on(vertx));
  }

  private RoutingTables(
      RegistryStore store,
      BooleanSupplier partialView,
      ModuleDescriptor builtIn,
      Compiler compiler) {
    this.store = store;
    this.partialView = partialView;
    this.builtIn = builtIn;
    this.compiler = compiler;
  }

  /** Where tables are compiled. */
  interface Compiler {

    Compiler INLINE =
        new Compiler() {
          @Override
          public <T> Future<T> run(Callable<T> work) {
            try {
              return Future.succeededFuture(work.call());
            } catch (Exception e) {
              return Future.failedFuture(e);
            }
          }
        };

    <T> Future<T> run(Callable<T> work);

    static Compiler on(Vertx vertx) {
      WorkerExecutor worker = vertx.createSharedWorkerExecutor("okapigw-routing", 1);
      return new Compiler() {
        @Override
        public <T> Future<T> run(Callable<T> work) {
          return worker.executeBlocking(work, false);
        }
      };
    }
  }

  /** For tests: {@code hook} is told of every tenant's table compiled, where it is compiled. */
  void onCompile(Consumer<String> hook) {
    compiling = hook;
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
   * Re-reads the store ({@link RegistryStore#refresh}) and recompiles every tenant's table: at
   * start, and when this node may have missed changes.
   */
  public Future<Void> rebuild() {
    return changedElsewhere(ChangeScope.all());
  }

  /**
   * A change another node made: what it touched re-read from the store ({@link
   * RegistryStore#refresh(ChangeScope)}), then {@link #apply}.
   */
  public Future<Void> changedElsewhere(ChangeScope scope) {
    return store.refresh(scope).compose(v -> apply(scope));
  }

  /**
   * Recompiles the tables {@code scope} touched, from the store as it is. Builds run one after
   * another, so a slower older build never overwrites a newer one; changes arriving while one runs
   * are built together by the next. A failed build is logged and its scope kept for the next.
   *
   * @return done once the tables reflect the change
   */
  public Future<Void> apply(ChangeScope scope) {
    Promise<Void> done;
    synchronized (this) {
      if (scope.isEmpty() && waiting == null) {
        return Future.succeededFuture();
      }
      pending = pending.merge(scope);
      if (waiting == null) {
        waiting = Promise.promise();
      }
      done = waiting;
      if (building) {
        return done.future();
      }
      building = true;
    }
    next();
    return done.future();
  }

  /** Builds what is pending, then again while changes arrived meanwhile. */
  private void next() {
    ChangeScope scope;
    Promise<Void> done;
    synchronized (this) {
      if (waiting == null) {
        building = false;
        return;
      }
      scope = pending;
      pending = ChangeScope.NONE;
      done = waiting;
      waiting = null;
    }
    Future<Void> built;
    try {
      built = build(scope);
    } catch (RuntimeException e) {
      built = Future.failedFuture(e);
    }
    built.onComplete(
        ar -> {
          if (ar.failed()) {
            log.error("rebuilding routing tables failed", ar.cause());
            synchronized (this) {
              pending = scope.merge(pending);
            }
          }
          done.handle(ar);
          next();
        });
  }

  private Future<Void> build(ChangeScope scope) {
    return affected(scope)
        .compose(this::read)
        .compose(inputs -> compiler.run(() -> compileAll(inputs)))
        .map(this::swap);
  }

  /** The tenants whose tables the change touched; the descriptors it changed forgotten. */
  private Future<Set<String>> affected(ChangeScope scope) {
    if (scope.everything()) {
      descriptors.clear();
      return store
          .tenants()
          .map(
              all -> {
                Set<String> ids = new TreeSet<>(tables.keySet());
                all.forEach(t -> ids.add(t.id()));
                return ids;
              });
    }
    descriptors.keySet().removeAll(scope.modules());
    Set<String> ids = new TreeSet<>(scope.tenants());
    if (!scope.modules().isEmpty()) {
      enabled.forEach(
          (tenant, modules) -> {
            for (String id : modules) {
              if (scope.modules().contains(id)) {
                ids.add(tenant);
                return;
              }
            }
          });
    }
    return Future.succeededFuture(ids);
  }

  /** What a build compiles from: the tenants, their enabled modules, descriptors, instances. */
  private record Inputs(
      Map<String, TenantDescriptor> tenants,
      Set<String> gone,
      Map<String, List<String>> enabled,
      Map<String, ModuleDescriptor> modules,
      Map<String, Instances> instances) {}

  /** A build's tables, and the tenants it found gone. */
  private record Compiled(
      Map<String, RoutingTable> tables, Set<String> gone, Map<String, List<String>> enabled) {}

  private Future<Inputs> read(Set<String> ids) {
    List<String> order = List.copyOf(ids);
    return Future.all(
            Future.all(order.stream().map(store::tenant).toList()),
            Future.all(order.stream().map(store::enabledModules).toList()),
            store.deployments())
        .compose(
            all -> {
              Map<String, TenantDescriptor> tenants = new HashMap<>();
              Set<String> gone = new TreeSet<>();
              Map<String, List<String>> modulesOf = new HashMap<>();
              List<Optional<TenantDescriptor>> found = all.<CompositeFuture>resultAt(0).list();
              List<List<String>> lists = all.<CompositeFuture>resultAt(1).list();
              for (int i = 0; i < order.size(); i++) {
                String id = order.get(i);
                if (found.get(i).isPresent()) {
                  tenants.put(id, found.get(i).get());
                  modulesOf.put(id, List.copyOf(lists.get(i)));
                } else {
                  gone.add(id);
                }
              }
              Map<String, Instances> instances = instances(all.resultAt(2));
              return descriptorsOf(modulesOf)
                  .map(modules -> new Inputs(tenants, gone, modulesOf, modules, instances));
            });
  }

  /** The descriptors the tenants enable: those known from earlier builds, the others read. */
  private Future<Map<String, ModuleDescriptor>> descriptorsOf(Map<String, List<String>> modulesOf) {
    Set<String> unknown = new TreeSet<>();
    modulesOf.values().forEach(ids -> ids.forEach(unknown::add));
    unknown.removeAll(descriptors.keySet());
    List<String> order = List.copyOf(unknown);
    return Future.all(order.stream().map(store::module).toList())
        .map(
            read -> {
              List<Optional<ModuleDescriptor>> found = read.list();
              for (Optional<ModuleDescriptor> module : found) {
                module.ifPresent(m -> descriptors.put(m.id(), m));
              }
              return Map.copyOf(descriptors);
            });
  }

  private Compiled compileAll(Inputs inputs) {
    Map<String, RoutingTable> compiled = new HashMap<>();
    inputs
        .tenants()
        .forEach(
            (id, tenant) -> {
              compiling.accept(id);
              compiled.put(
                  id,
                  compile(tenant, inputs.enabled().get(id), inputs.modules(), inputs.instances()));
            });
    return new Compiled(compiled, inputs.gone(), inputs.enabled());
  }

  /** The new snapshot: the tables compiled put in, the tenants gone taken out, swapped whole. */
  private Void swap(Compiled compiled) {
    boolean partial = partialView.getAsBoolean();
    Map<String, RoutingTable> next = new HashMap<>(tables);
    compiled
        .tables()
        .forEach(
            (tenant, table) -> {
              enabled.put(tenant, compiled.enabled().get(tenant));
              next.put(tenant, checked(tenant, table, partial));
            });
    for (String tenant : compiled.gone()) {
      enabled.remove(tenant);
      RoutingTable kept = checked(tenant, null, partial);
      if (kept == null) {
        next.remove(tenant);
      } else {
        next.put(tenant, kept);
      }
    }
    tables = Map.copyOf(next);
    return null;
  }

  /**
   * While the view is partial, the tenant's new table (null: the tenant is gone) compared with the
   * last one built from the whole registry; else it becomes the reference.
   */
  private RoutingTable checked(String tenant, RoutingTable compiled, boolean partial) {
    if (!partial) {
      if (compiled == null) {
        trusted.remove(tenant);
      } else {
        trusted.put(tenant, compiled);
      }
      return compiled;
    }
    RoutingTable before = trusted.get(tenant);
    String lost = before == null ? null : lost(before, compiled);
    if (lost == null) {
      return compiled;
    }
    log.warn("tenant {} served 503 while this node is cut off: {}", tenant, lost);
    return before.unavailable(cutOff(tenant, lost), builtInId());
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
