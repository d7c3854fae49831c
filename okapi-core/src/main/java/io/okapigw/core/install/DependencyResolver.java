package io.okapigw.core.install;

import io.okapigw.core.http.HttpError;
import io.okapigw.core.install.PlanEntry.Action;
import io.okapigw.core.install.PlanModule.Interface;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns an install request into a plan the way Okapi 6.1.5 does ({@code DepResolution}):
 * version-less ids become the newest registered module, an enable of an enabled product becomes an
 * upgrade, missing required interfaces pull in their newest provider, modules left without what
 * they need are upgraded or disabled, and the result is put in dependency order. Maps are {@link
 * HashMap}s where Okapi uses them, so that plans come out in Okapi's order.
 */
final class DependencyResolver {

  private static final int MAX_ITERATIONS = 100;

  private DependencyResolver() {}

  /**
   * Resolves {@code plan} in place.
   *
   * @param available the modules that may be enabled, by id
   * @param enabled the tenant's modules now, by id (changed: the modules after the plan)
   * @param plan the request; afterwards the plan, in the order to run it
   * @param reinstall enable modules already enabled again ({@code from} = {@code id})
   * @throws HttpError 400 with Okapi's messages, joined by ". ", if the request cannot be met
   */
  static void resolve(
      Map<String, PlanModule> available,
      Map<String, PlanModule> enabled,
      List<PlanEntry> plan,
      boolean reinstall) {
    List<PlanModule> before = new LinkedList<>(enabled.values());
    Set<String> sticky = new HashSet<>();
    List<String> errors = new ArrayList<>();
    for (PlanEntry entry : plan) {
      if (entry.action() == Action.ENABLE) {
        enableRequested(available, enabled, entry, reinstall, sticky, errors);
      }
      if (entry.action() == Action.DISABLE) {
        disableRequested(enabled, entry, errors);
      }
    }
    failIfAny(errors);
    List<String> remaining = null;
    for (int i = 0; i < MAX_ITERATIONS && remaining == null; i++) {
      remaining = new Consistency(available, enabled, plan, sticky).checkAndFix();
    }
    if (remaining == null) {
      throw new HttpError(
          500, "Dependency resolution not completing in " + MAX_ITERATIONS + " iterations");
    }
    failIfAny(remaining);
    sort(plan, available, before);
  }

  private static void enableRequested(
      Map<String, PlanModule> available,
      Map<String, PlanModule> enabled,
      PlanEntry entry,
      boolean reinstall,
      Set<String> sticky,
      List<String> errors) {
    String id =
        ModuleIds.parse(entry.id()).hasVersion()
            ? entry.id()
            : ModuleIds.newestOf(entry.id(), available.keySet());
    entry.id(id);
    sticky.add(id);
    if (!available.containsKey(id)) {
      errors.add("Module " + id + " not found");
    } else if (enabled.containsKey(id) && !reinstall) {
      entry.action(Action.UPTODATE);
    } else {
      String product = ModuleIds.product(id);
      for (String enabledId : enabled.keySet()) {
        if (ModuleIds.product(enabledId).equals(product)) {
          if (sticky.contains(enabledId) && !id.equals(enabledId)) {
            errors.add("Cannot remove module " + enabledId + " which is explicitly given");
          }
          enabled.remove(enabledId);
          entry.from(enabledId);
          break;
        }
      }
      enabled.put(id, available.get(id));
    }
  }

  private static void disableRequested(
      Map<String, PlanModule> enabled, PlanEntry entry, List<String> errors) {
    String id =
        ModuleIds.parse(entry.id()).hasVersion()
            ? entry.id()
            : ModuleIds.newestOf(entry.id(), enabled.keySet());
    entry.id(id);
    if (enabled.remove(id) == null) {
      errors.add("Module " + id + " not found");
    }
  }

  /**
   * The upgrade request: every enabled module whose product has a newer available module.
   *
   * @return enable entries, {@code from} the enabled module
   */
  static List<PlanEntry> upgrades(
      Map<String, PlanModule> available, Map<String, PlanModule> enabled) {
    List<PlanEntry> upgrades = new LinkedList<>();
    for (String id : enabled.keySet()) {
      String newest = ModuleIds.newestOf(id, available.keySet());
      if (!newest.equals(id)) {
        upgrades.add(new PlanEntry(newest, id, Action.ENABLE));
      }
    }
    return upgrades;
  }

  /**
   * Orders the plan so that each enable finds what it requires enabled and each disable leaves
   * nothing without what it requires (a topological sort, first runnable entry first).
   */
  static void sort(
      List<PlanEntry> plan, Map<String, PlanModule> available, List<PlanModule> modules) {
    List<PlanEntry> sorted = new ArrayList<>();
    boolean progress = true;
    while (progress && !plan.isEmpty()) {
      progress = false;
      for (PlanEntry entry : plan) {
        if (runnable(entry, available, modules)) {
          plan.remove(entry);
          sorted.add(entry);
          progress = true;
          break;
        }
      }
    }
    if (!plan.isEmpty()) {
      throw HttpError.badRequest(
          "Some modules cannot be topological sorted: "
              + String.join(", ", plan.stream().map(PlanEntry::id).toList()));
    }
    plan.addAll(sorted);
  }

  private static boolean runnable(
      PlanEntry entry, Map<String, PlanModule> available, List<PlanModule> modules) {
    PlanModule module = available.get(entry.id());
    if (entry.action() == Action.DISABLE) {
      if (!module.unneededBy(modules)) {
        return false;
      }
      modules.remove(module);
    } else if (entry.action() == Action.ENABLE) {
      if (!module.requirementsMetBy(modules)) {
        return false;
      }
      modules.add(module);
      if (entry.from() != null) {
        modules.remove(available.get(entry.from()));
      }
    }
    return true;
  }

  /** Adds a fix to the plan; an upgrade to another product is a disable, then an enable. */
  static void addFix(List<PlanEntry> plan, String id, String from, Action action) {
    String fromId = from;
    if (action == Action.ENABLE
        && from != null
        && !ModuleIds.product(id).equals(ModuleIds.product(from))) {
      plan.add(new PlanEntry(from, null, Action.DISABLE));
      fromId = null;
    }
    plan.add(new PlanEntry(id, fromId, action));
  }

  private static void failIfAny(List<String> errors) {
    if (!errors.isEmpty()) {
      throw HttpError.badRequest(String.join(". ", errors));
    }
  }

  /**
   * @return Okapi's error for an interface nobody provides
   */
  static String notFound(String interfaceId, String moduleId) {
    return "interface " + interfaceId + " required by module " + moduleId + " not found";
  }

  static boolean compatible(Interface provided, Interface required) {
    return provided.id().equals(required.id())
        && InterfaceVersions.compatible(provided.version(), required.version());
  }
}
