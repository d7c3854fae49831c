package io.okapigw.core.install;

import io.okapigw.core.install.PlanEntry.Action;
import io.okapigw.core.install.PlanModule.Interface;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One pass of Okapi's consistency check over the modules a tenant would have after a plan ({@code
 * DepResolution.checkEnabledModules} with fixing on): an interface provided twice, a required
 * interface nobody provides, a provided version a module cannot use. The first problem it can fix
 * it fixes (disabling, enabling or upgrading a module that was not asked for, and adding that to
 * the plan) and stops; run it again until it reports.
 */
final class Consistency {

  /** A module and one of its interfaces. */
  private record Use(PlanModule module, Interface itf) {}

  private final Map<String, PlanModule> available;
  private final Map<String, PlanModule> enabled;
  private final List<PlanEntry> plan;
  private final Set<String> sticky;
  private final List<String> errors = new ArrayList<>();
  private final Map<String, List<Use>> provided = new HashMap<>();
  private final Map<String, List<Use>> required = new HashMap<>();
  private final Map<String, List<Use>> requiredOrOptional = new HashMap<>();

  /**
   * @param sticky ids the request named: never removed to fix something
   */
  Consistency(
      Map<String, PlanModule> available,
      Map<String, PlanModule> enabled,
      List<PlanEntry> plan,
      Set<String> sticky) {
    this.available = available;
    this.enabled = enabled;
    this.plan = plan;
    this.sticky = sticky;
    for (PlanModule m : enabled.values()) {
      m.provides()
          .forEach(
              i -> provided.computeIfAbsent(i.id(), k -> new ArrayList<>()).add(new Use(m, i)));
      m.requires()
          .forEach(
              i -> required.computeIfAbsent(i.id(), k -> new ArrayList<>()).add(new Use(m, i)));
      m.requiresOrOptional()
          .forEach(
              i ->
                  requiredOrOptional
                      .computeIfAbsent(i.id(), k -> new ArrayList<>())
                      .add(new Use(m, i)));
    }
  }

  /**
   * @return null if it fixed something (run again), else the problems left (empty: none)
   */
  List<String> checkAndFix() {
    if (fixedMultiple() || fixedMissing() || fixedIncompatible()) {
      return null;
    }
    return errors;
  }

  private boolean fixedMultiple() {
    for (Map.Entry<String, List<Use>> e : provided.entrySet()) {
      if (e.getValue().size() <= 1) {
        continue;
      }
      for (Use use : e.getValue()) {
        if (!sticky.contains(use.module().id())) {
          enabled.remove(use.module().id());
          DependencyResolver.addFix(plan, use.module().id(), null, Action.DISABLE);
          return true;
        }
      }
      errors.add(
          "Multiple modules "
              + String.join(", ", e.getValue().stream().map(u -> u.module().id()).toList())
              + " provide interface "
              + e.getKey());
    }
    return false;
  }

  private boolean fixedMissing() {
    for (Map.Entry<String, List<Use>> e : required.entrySet()) {
      if (provided.get(e.getKey()) != null) {
        continue;
      }
      for (Use req : e.getValue()) {
        Map<String, PlanModule> providers = newestProviders(req.itf());
        if (providers.size() > 1) {
          errors.add(multipleProducts(e.getKey(), req.module().id(), providers));
          return false;
        }
        if (!providers.isEmpty()) {
          PlanModule found = providers.values().iterator().next();
          if (sticky.contains(req.module().id())) {
            enabled.put(found.id(), found);
            DependencyResolver.addFix(plan, found.id(), null, Action.ENABLE);
            sticky.add(found.id());
          } else {
            enabled.remove(req.module().id());
            DependencyResolver.addFix(plan, req.module().id(), null, Action.DISABLE);
          }
          return true;
        }
        errors.add(DependencyResolver.notFound(e.getKey(), req.module().id()));
      }
    }
    return false;
  }

  private boolean fixedIncompatible() {
    for (Map.Entry<String, List<Use>> e : requiredOrOptional.entrySet()) {
      List<Use> providers = provided.get(e.getKey());
      if (providers == null) {
        continue;
      }
      Use prov = providers.get(0);
      for (Use req : e.getValue()) {
        if (InterfaceVersions.compatible(prov.itf().version(), req.itf().version())) {
          continue;
        }
        Boolean fixed = fixIncompatible(e.getKey(), prov, req);
        if (fixed != null) {
          return fixed;
        }
        errors.add(
            "Incompatible version for module "
                + req.module().id()
                + " interface "
                + e.getKey()
                + ". Need "
                + req.itf().version()
                + ". Have "
                + prov.itf().version()
                + "/"
                + prov.module().id());
      }
    }
    return false;
  }

  /**
   * @return true fixed, false gave up (error added), null not fixable here (error to add)
   */
  private Boolean fixIncompatible(String interfaceId, Use prov, Use req) {
    if (!sticky.contains(prov.module().id())) {
      Map<String, PlanModule> providers = newestProviders(req.itf());
      if (providers.size() > 1) {
        errors.add(multipleProducts(interfaceId, req.module().id(), providers));
        return false;
      }
      if (!providers.isEmpty()) {
        replace(prov.module(), providers.values().iterator().next());
        return true;
      }
    }
    if (!sticky.contains(req.module().id())) {
      Map<String, PlanModule> users = newestUsers(prov.itf());
      PlanModule newer = users.get(req.module().product());
      if (newer != null) {
        replace(req.module(), newer);
      } else {
        enabled.remove(req.module().id());
        DependencyResolver.addFix(plan, req.module().id(), null, Action.DISABLE);
      }
      return true;
    }
    return null;
  }

  private void replace(PlanModule from, PlanModule to) {
    sticky.add(to.id());
    enabled.remove(from.id());
    enabled.put(to.id(), to);
    DependencyResolver.addFix(plan, to.id(), from.id(), Action.ENABLE);
  }

  private static String multipleProducts(
      String interfaceId, String moduleId, Map<String, PlanModule> providers) {
    return "interface "
        + interfaceId
        + " required by module "
        + moduleId
        + " is provided by multiple products: "
        + String.join(", ", providers.keySet());
  }

  /**
   * @return by product, the newest available module providing {@code req} compatibly
   */
  private Map<String, PlanModule> newestProviders(Interface req) {
    return newest(req, true);
  }

  /**
   * @return by product, the newest available module requiring {@code prov} compatibly
   */
  private Map<String, PlanModule> newestUsers(Interface prov) {
    return newest(prov, false);
  }

  private Map<String, PlanModule> newest(Interface wanted, boolean providers) {
    Set<String> replaced = new HashSet<>();
    Map<String, PlanModule> byProduct = new HashMap<>();
    for (PlanModule m : available.values()) {
      List<Interface> candidates = providers ? m.provides() : m.requiresOrOptional();
      for (Interface i : candidates) {
        boolean match =
            providers
                ? DependencyResolver.compatible(i, wanted)
                : PlanModule.regular(i) && DependencyResolver.compatible(wanted, i);
        if (match) {
          replaced.addAll(m.replaces());
          byProduct.merge(
              m.product(), m, (a, b) -> a.moduleId().compareTo(b.moduleId()) >= 0 ? a : b);
        }
      }
    }
    replaced.forEach(byProduct::remove);
    return byProduct;
  }
}
