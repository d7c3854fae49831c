package io.okapigw.core.install;

import io.okapigw.core.http.HttpError;
import io.okapigw.core.install.PlanEntry.Action;
import io.okapigw.core.registry.ModuleDescriptor;
import io.okapigw.core.registry.Registry;
import io.okapigw.core.registry.TenantModules;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.HashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;

/**
 * An install or upgrade request resolved against the registered modules and the tenant's modules,
 * as Okapi 6.1.5 resolves it: the modules {@code preRelease} and {@code npmSnapshot} let through
 * are available, the tenant's among them count as enabled, and with {@code depCheck} (the default)
 * {@link DependencyResolver} completes and orders the request.
 *
 * @param tenant the tenant
 * @param entries the plan, in the order to run it
 * @param available the modules considered, by id
 * @param enabled the tenant's modules when planned, in enable order
 */
record Plan(
    String tenant,
    List<PlanEntry> entries,
    Map<String, PlanModule> available,
    List<ModuleDescriptor> enabled) {

  /**
   * @param request the entries asked for; null for an upgrade of every enabled module
   * @return the plan; 404 unknown tenant, 400 with Okapi's messages if it cannot be met
   */
  static Future<Plan> make(
      Vertx vertx,
      Registry registry,
      String tenant,
      List<PlanEntry> request,
      InstallOptions options) {
    return registry
        .tenantModules()
        .enabled(tenant)
        .compose(
            enabled ->
                registry
                    .modules()
                    .compose(
                        all ->
                            // resolution walks every registered module for each interface: keep it
                            // off the loop
                            vertx.executeBlocking(
                                () -> resolve(tenant, all, enabled, request, options), false)));
  }

  private static Plan resolve(
      String tenant,
      List<ModuleDescriptor> all,
      List<ModuleDescriptor> enabled,
      List<PlanEntry> request,
      InstallOptions options) {
    Map<String, PlanModule> available = new HashMap<>();
    for (ModuleDescriptor m : all) {
      if (options.considers(m.id())) {
        available.put(m.id(), PlanModule.of(m));
      }
    }
    Map<String, PlanModule> enabledNow = new HashMap<>();
    for (ModuleDescriptor m : enabled) {
      if (available.containsKey(m.id())) {
        enabledNow.put(m.id(), available.get(m.id()));
      }
    }
    List<PlanEntry> entries =
        request != null
            ? new LinkedList<>(request)
            : DependencyResolver.upgrades(available, enabledNow);
    if (options.depCheck()) {
      DependencyResolver.resolve(available, enabledNow, entries, options.reinstall());
    } else {
      entries.forEach(e -> asGiven(e, available, enabledNow));
    }
    return new Plan(tenant, entries, available, enabled);
  }

  /** {@code depCheck=false}: the entry as given, its id made exact. */
  private static void asGiven(
      PlanEntry entry, Map<String, PlanModule> available, Map<String, PlanModule> enabled) {
    if (!entry.changes()) {
      return;
    }
    boolean versioned = ModuleIds.parse(entry.id()).hasVersion();
    boolean enable = entry.action() == Action.ENABLE;
    if (!versioned) {
      entry.id(ModuleIds.newestOf(entry.id(), enable ? available.keySet() : enabled.keySet()));
    }
    if (!available.containsKey(entry.id())
        || entry.action() == Action.DISABLE && !enabled.containsKey(entry.id())) {
      throw HttpError.badRequest("Module " + entry.id() + " not found");
    }
    if (enable && entry.from() == null) {
      String product = ModuleIds.product(entry.id());
      enabled.keySet().stream()
          .filter(id -> ModuleIds.product(id).equals(product))
          .findFirst()
          .ifPresent(entry::from);
    }
    if (enable && entry.id().equals(entry.from())) {
      entry.action(Action.UPTODATE);
      entry.from(null);
    }
  }

  /**
   * @return done if the tenant's modules are still those planned against; 409 if another change
   *     came between planning and running
   */
  Future<Void> stillCurrent(TenantModules modules) {
    List<String> planned = enabled.stream().map(ModuleDescriptor::id).toList();
    return modules
        .enabled(tenant)
        .map(
            now -> {
              if (!now.stream().map(ModuleDescriptor::id).toList().equals(planned)) {
                throw new HttpError(
                    409,
                    "the modules of tenant "
                        + tenant
                        + " changed after this job"
                        + " was planned (another install or enable ran first); nothing was changed, post"
                        + " the install again");
              }
              return null;
            });
  }
}
