package io.okapigw.core.tenantinit;

import io.okapigw.core.registry.ModuleDescriptor;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The calls a module change makes before it counts, in Okapi 6.1.5's order:
 *
 * <ol>
 *   <li>the module's permission sets (a disabled module's: the empty list) to the tenant's
 *       permissions module ({@code _tenantPermissions}), unless the module is one itself;
 *   <li>the module's {@code _tenant} call (see {@link TenantCall}), one at a time per tenant and
 *       module across the cluster ({@link TenantOperations}); with {@code purge}, an enabled module
 *       is first told to drop the tenant's data (its failure ignored);
 *   <li>a permissions module being enabled gets its own sets, then, unless it replaces an older
 *       one, every enabled module's.
 * </ol>
 *
 * System calls are authenticated as Okapi does (see {@link SystemCalls}); the first failure stops
 * the change, naming the module.
 */
public final class TenantInit {

  private static final Logger log = LoggerFactory.getLogger(TenantInit.class);
  private static final String SINGLE_NODE = "localhost";

  private final PermissionsCalls permissions;
  private final TenantInterface tenantInterface;

  /**
   * A single node's.
   *
   * @param calls makes the system calls (the node's one)
   * @param options how long a module may take
   * @param clock for the {@code _tenant} deadline
   */
  public TenantInit(Vertx vertx, SystemCalls calls, TenantInitOptions options, Clock clock) {
    this(vertx, calls, options, clock, SINGLE_NODE, () -> List.of(SINGLE_NODE));
  }

  /**
   * @param calls makes the system calls (the node's one)
   * @param options how long a module may take
   * @param clock for the {@code _tenant} deadline
   * @param node this node's id in the cluster
   * @param members the cluster's members now: a {@code _tenant} operation of a node that is not one
   *     is no longer watched ({@link TenantOperations})
   */
  public TenantInit(
      Vertx vertx,
      SystemCalls calls,
      TenantInitOptions options,
      Clock clock,
      String node,
      Supplier<List<String>> members) {
    this.permissions = new PermissionsCalls(calls, options.timeout().toMillis());
    this.tenantInterface =
        new TenantInterface(
            vertx, calls, options, clock, new TenantOperations(vertx, clock, node, members));
  }

  /**
   * Makes the calls for one change of a tenant's modules.
   *
   * @param enabled the tenant's modules now (before the change)
   * @param from the module disabled or upgraded from; null when enabling
   * @param to the module enabled or upgraded to; null when disabling
   * @return done; failed with an error naming the module that failed
   */
  public Future<Void> change(
      String tenant,
      List<ModuleDescriptor> enabled,
      ModuleDescriptor from,
      ModuleDescriptor to,
      ChangeParameters parameters) {
    return announce(tenant, enabled, from, to, parameters)
        .compose(v -> tenantCall(tenant, enabled, from, to, parameters))
        .compose(
            v ->
                to != null && PermissionsCalls.isProvider(to) && parameters.invokes().test(to.id())
                    ? permissions
                        .post(tenant, enabled, to, to, false)
                        .compose(
                            x ->
                                from == null
                                    ? announceAll(tenant, enabled, to)
                                    : Future.succeededFuture())
                    : Future.succeededFuture());
  }

  /**
   * Posts every module's permission sets to a permissions module (Okapi does this at the end of an
   * install that upgraded the permissions module).
   *
   * @param enabled the modules whose sets are posted, in this order
   */
  public Future<Void> announceAll(
      String tenant, List<ModuleDescriptor> enabled, ModuleDescriptor permissionsModule) {
    Future<Void> chain = Future.succeededFuture();
    for (ModuleDescriptor m : enabled) {
      chain = chain.compose(v -> permissions.post(tenant, enabled, permissionsModule, m, false));
    }
    return chain;
  }

  /**
   * @return whether the module provides {@code _tenantPermissions}
   */
  public static boolean isPermissionsModule(ModuleDescriptor module) {
    return PermissionsCalls.isProvider(module);
  }

  private Future<Void> announce(
      String tenant,
      List<ModuleDescriptor> enabled,
      ModuleDescriptor from,
      ModuleDescriptor to,
      ChangeParameters parameters) {
    if (from == null && to == null || to != null && PermissionsCalls.isProvider(to)) {
      return Future.succeededFuture();
    }
    Optional<ModuleDescriptor> provider = PermissionsCalls.provider(enabled);
    if (provider.isEmpty() || !parameters.invokes().test(provider.get().id())) {
      return Future.succeededFuture();
    }
    return to != null
        ? permissions.post(tenant, enabled, provider.get(), to, false)
        : permissions.post(tenant, enabled, provider.get(), from, true);
  }

  private Future<Void> tenantCall(
      String tenant,
      List<ModuleDescriptor> enabled,
      ModuleDescriptor from,
      ModuleDescriptor to,
      ChangeParameters parameters) {
    if (to != null && parameters.purge()) {
      return invoke(tenant, enabled, to, null, true, parameters)
          .otherwise(
              e -> {
                log.info(
                    "tenant {}: purge of {} before enabling it failed, ignored: {}",
                    tenant,
                    to.id(),
                    e.getMessage());
                return null;
              })
          .compose(v -> invoke(tenant, enabled, null, to, false, parameters));
    }
    return invoke(tenant, enabled, from, to, to == null && parameters.purge(), parameters);
  }

  private Future<Void> invoke(
      String tenant,
      List<ModuleDescriptor> enabled,
      ModuleDescriptor from,
      ModuleDescriptor to,
      boolean purge,
      ChangeParameters parameters) {
    ModuleDescriptor module = to != null ? to : from;
    if (!parameters.invokes().test(module.id())) {
      return Future.succeededFuture();
    }
    try {
      return TenantCall.of(from, to, purge, parameters.tenantParameters())
          .map(call -> tenantInterface.call(tenant, enabled, call))
          .orElseGet(Future::succeededFuture);
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
  }
}
