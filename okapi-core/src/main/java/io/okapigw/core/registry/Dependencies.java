package io.okapigw.core.registry;

import io.okapigw.core.http.HttpError;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Okapi's dependency rules: for registering and removing module descriptors (against every
 * registered module), and for enabling and disabling modules of a tenant.
 */
final class Dependencies {

  private Dependencies() {}

  /**
   * Okapi's check of descriptors being registered ({@code DepResolution.checkAvailable}): every
   * interface a module requires is provided, in a compatible version, by a registered module (the
   * new ones included); an {@code optional} interface, when some module provides it, too.
   *
   * @param available every registered module, the new ones included
   * @param checked the modules to check
   * @return one message per unmet requirement, in Okapi's words; empty if all are met
   */
  static List<String> unmet(
      Collection<ModuleDescriptor> available, Collection<ModuleDescriptor> checked) {
    return unmetRequirements(available, checked).stream().map(Unmet::message).toList();
  }

  /**
   * What removing a module would break: the requirements of the other modules that are met now and
   * would not be after. (Okapi refuses a removal while any module has an unmet requirement, even
   * one the removal has nothing to do with, such as a module registered with {@code check=false}.)
   *
   * @return the newly unmet requirements, in Okapi's words; empty if none
   */
  static List<String> brokenByRemoval(
      ModuleDescriptor removed, Collection<ModuleDescriptor> registered) {
    List<ModuleDescriptor> remaining =
        registered.stream().filter(m -> !m.id().equals(removed.id())).toList();
    Set<String> before =
        unmetRequirements(registered, remaining).stream()
            .map(Unmet::key)
            .collect(Collectors.toSet());
    return unmetRequirements(remaining, remaining).stream()
        .filter(u -> !before.contains(u.key()))
        .map(Unmet::message)
        .toList();
  }

  /**
   * Okapi's pull ({@code createList} with {@code removeIfMissingDep}): leaves out the candidates
   * whose requirements the registered modules and the other candidates do not meet, round after
   * round until the rest are met (a module left out can leave another one's unmet). Okapi leaves
   * them out one at a time, the first first; the outcome differs only if leaving out a module makes
   * an {@code optional} interface of another one met (an incompatible provider gone).
   *
   * @return each candidate left out, by id, with its first unmet requirement in Okapi's words, in
   *     the candidates' order
   */
  static Map<String, String> leftOutUnmet(
      Collection<ModuleDescriptor> registered, List<ModuleDescriptor> candidates) {
    Map<String, String> leftOut = new LinkedHashMap<>();
    List<ModuleDescriptor> kept = new ArrayList<>(candidates);
    while (true) {
      List<ModuleDescriptor> available = new ArrayList<>(registered);
      available.addAll(kept);
      Map<String, String> round = new LinkedHashMap<>();
      unmetRequirements(available, kept).forEach(u -> round.putIfAbsent(u.moduleId(), u.message()));
      if (round.isEmpty()) {
        break;
      }
      kept.removeIf(m -> round.containsKey(m.id()));
      leftOut.putAll(round);
    }
    Map<String, String> ordered = new LinkedHashMap<>();
    candidates.stream()
        .filter(m -> leftOut.containsKey(m.id()))
        .forEach(m -> ordered.put(m.id(), leftOut.get(m.id())));
    return ordered;
  }

  /** A requirement of a module no registered module meets, and Okapi's message for it. */
  private record Unmet(String moduleId, InterfaceReference ref, String message) {

    String key() {
      return moduleId + " " + ref;
    }
  }

  private static List<Unmet> unmetRequirements(
      Collection<ModuleDescriptor> available, Collection<ModuleDescriptor> checked) {
    Map<String, List<Provider>> providers = providers(available);
    List<Unmet> unmet = new ArrayList<>();
    for (ModuleDescriptor module : checked) {
      module.requires().forEach(ref -> unmet(module, ref, providers, false).ifPresent(unmet::add));
      module.optional().forEach(ref -> unmet(module, ref, providers, true).ifPresent(unmet::add));
    }
    return unmet;
  }

  private record Provider(String version, String moduleId) {}

  private static Map<String, List<Provider>> providers(Collection<ModuleDescriptor> modules) {
    Map<String, List<Provider>> providers = new HashMap<>();
    for (ModuleDescriptor module : modules) {
      for (InterfaceDescriptor itf : module.provides()) {
        providers
            .computeIfAbsent(itf.id(), k -> new ArrayList<>())
            .add(new Provider(itf.version(), module.id()));
      }
    }
    return providers;
  }

  private static Optional<Unmet> unmet(
      ModuleDescriptor module,
      InterfaceReference ref,
      Map<String, List<Provider>> providers,
      boolean optional) {
    List<Provider> candidates = providers.getOrDefault(ref.id(), List.of());
    if (candidates.stream().anyMatch(p -> ref.isSatisfiedBy(p.version()))) {
      return Optional.empty();
    }
    if (candidates.isEmpty()) {
      return optional
          ? Optional.empty()
          : Optional.of(
              new Unmet(
                  module.id(),
                  ref,
                  "Missing dependency: "
                      + module.id()
                      + " requires "
                      + ref.id()
                      + ": "
                      + ref.version()));
    }
    return Optional.of(
        new Unmet(
            module.id(),
            ref,
            "Incompatible version for module "
                + module.id()
                + " interface "
                + ref.id()
                + ". Need "
                + ref.version()
                + ". Have "
                + have(candidates)));
  }

  /**
   * @return each version provided, newest first, with its providers: {@code 14.1/mod-a-1.0.0}
   */
  private static String have(List<Provider> candidates) {
    Comparator<InterfaceVersion> order =
        Comparator.comparingInt(InterfaceVersion::major)
            .thenComparingInt(InterfaceVersion::minor)
            .thenComparingInt(InterfaceVersion::patch);
    Map<String, List<String>> byVersion =
        new TreeMap<>(
            Comparator.<String, InterfaceVersion>comparing(
                    v -> InterfaceVersion.parseAll(v).stream().findFirst().orElse(null),
                    Comparator.nullsLast(order.reversed()))
                .thenComparing(Comparator.naturalOrder()));
    candidates.forEach(
        p -> byVersion.computeIfAbsent(p.version(), v -> new ArrayList<>()).add(p.moduleId()));
    return byVersion.entrySet().stream()
        .map(e -> e.getKey() + "/" + String.join("/", e.getValue()))
        .collect(Collectors.joining(" "));
  }

  /** Fails with 400 unless every interface {@code module} requires is provided by the set. */
  static void checkEnable(String tenant, ModuleDescriptor module, List<ModuleDescriptor> after) {
    List<String> missing =
        module.requires().stream()
            .filter(ref -> !provided(ref, after))
            .map(InterfaceReference::toString)
            .toList();
    if (!missing.isEmpty()) {
      throw HttpError.badRequest(
          "cannot enable "
              + module.id()
              + " for tenant "
              + tenant
              + ": "
              + missing.size()
              + " required interface(s) missing: "
              + String.join(", ", missing));
    }
    for (ModuleDescriptor other : after) {
      if (other != module) {
        checkNoConflict(tenant, module, other);
      }
    }
  }

  /** Fails with 400 if a remaining module requires an interface only {@code module} provides. */
  static void checkDisable(
      String tenant, ModuleDescriptor module, List<ModuleDescriptor> remaining) {
    List<String> needs = new ArrayList<>();
    for (ModuleDescriptor other : remaining) {
      for (InterfaceReference ref : other.requires()) {
        if (providedBy(ref, module) && !provided(ref, remaining)) {
          needs.add(other.id() + " requires " + ref);
        }
      }
    }
    if (!needs.isEmpty()) {
      throw HttpError.badRequest(
          "cannot disable "
              + module.id()
              + " for tenant "
              + tenant
              + ": "
              + String.join("; ", needs));
    }
  }

  private static void checkNoConflict(
      String tenant, ModuleDescriptor module, ModuleDescriptor other) {
    String clash =
        module.provides().stream()
            .filter(i -> !i.isSystem() && !"multiple".equals(i.interfaceType()))
            .filter(i -> other.providedInterface(i.id()).isPresent())
            .map(InterfaceDescriptor::id)
            .collect(Collectors.joining(", "));
    if (!clash.isEmpty()) {
      throw HttpError.badRequest(
          "cannot enable "
              + module.id()
              + " for tenant "
              + tenant
              + ": interface(s) "
              + clash
              + " already provided by "
              + other.id());
    }
  }

  private static boolean provided(InterfaceReference ref, List<ModuleDescriptor> modules) {
    return modules.stream().anyMatch(m -> providedBy(ref, m));
  }

  private static boolean providedBy(InterfaceReference ref, ModuleDescriptor module) {
    return module
        .providedInterface(ref.id())
        .map(i -> ref.isSatisfiedBy(i.version()))
        .orElse(false);
  }
}
