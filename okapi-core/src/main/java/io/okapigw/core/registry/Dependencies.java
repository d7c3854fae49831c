package io.okapigw.core.registry;

import io.okapigw.core.http.HttpError;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** Okapi's dependency rules for enabling and disabling modules of a tenant. */
final class Dependencies {

  private Dependencies() {
  }

  /** Fails with 400 unless every interface {@code module} requires is provided by the set. */
  static void checkEnable(String tenant, ModuleDescriptor module, List<ModuleDescriptor> after) {
    List<String> missing = module.requires().stream()
        .filter(ref -> !provided(ref, after))
        .map(InterfaceReference::toString)
        .toList();
    if (!missing.isEmpty()) {
      throw HttpError.badRequest("cannot enable " + module.id() + " for tenant " + tenant + ": "
          + missing.size() + " required interface(s) missing: " + String.join(", ", missing));
    }
    for (ModuleDescriptor other : after) {
      if (other != module) {
        checkNoConflict(tenant, module, other);
      }
    }
  }

  /** Fails with 400 if a remaining module requires an interface only {@code module} provides. */
  static void checkDisable(String tenant, ModuleDescriptor module,
      List<ModuleDescriptor> remaining) {
    List<String> needs = new ArrayList<>();
    for (ModuleDescriptor other : remaining) {
      for (InterfaceReference ref : other.requires()) {
        if (providedBy(ref, module) && !provided(ref, remaining)) {
          needs.add(other.id() + " requires " + ref);
        }
      }
    }
    if (!needs.isEmpty()) {
      throw HttpError.badRequest("cannot disable " + module.id() + " for tenant " + tenant + ": "
          + String.join("; ", needs));
    }
  }

  private static void checkNoConflict(String tenant, ModuleDescriptor module,
      ModuleDescriptor other) {
    String clash = module.provides().stream()
        .filter(i -> !i.isSystem() && !"multiple".equals(i.interfaceType()))
        .filter(i -> other.providedInterface(i.id()).isPresent())
        .map(InterfaceDescriptor::id)
        .collect(Collectors.joining(", "));
    if (!clash.isEmpty()) {
      throw HttpError.badRequest("cannot enable " + module.id() + " for tenant " + tenant
          + ": interface(s) " + clash + " already provided by " + other.id());
    }
  }

  private static boolean provided(InterfaceReference ref, List<ModuleDescriptor> modules) {
    return modules.stream().anyMatch(m -> providedBy(ref, m));
  }

  private static boolean providedBy(InterfaceReference ref, ModuleDescriptor module) {
    return module.providedInterface(ref.id())
        .map(i -> ref.isSatisfiedBy(i.version()))
        .orElse(false);
  }
}
