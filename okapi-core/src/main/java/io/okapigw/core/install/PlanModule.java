package io.okapigw.core.install;

import io.okapigw.core.registry.InterfaceDescriptor;
import io.okapigw.core.registry.ModuleDescriptor;
import io.okapigw.core.registry.ModuleId;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * A module as dependency resolution sees it: its id, the interfaces it provides for proxying
 * (Okapi's "regular" ones: not system, not {@code multiple}), the ones it requires, the optional
 * ones, and the products it replaces. Equal by module id.
 */
final class PlanModule {

  /** An interface id and version (provided: one version; required: one or more). */
  record Interface(String id, String version) {}

  private final ModuleDescriptor descriptor;
  private final ModuleId moduleId;
  private final List<Interface> provides;
  private final List<Interface> requires;
  private final List<Interface> requiresOrOptional;
  private final List<String> replaces;

  private PlanModule(ModuleDescriptor descriptor) {
    this.descriptor = descriptor;
    this.moduleId = ModuleIds.parse(descriptor.id());
    this.provides =
        descriptor.provides().stream()
            .filter(PlanModule::regular)
            .map(i -> new Interface(i.id(), i.version()))
            .toList();
    this.requires =
        descriptor.requires().stream().map(r -> new Interface(r.id(), r.version())).toList();
    List<Interface> all = new ArrayList<>(requires);
    JsonArray optional = descriptor.toJson().getJsonArray("optional", new JsonArray());
    optional.stream()
        .filter(JsonObject.class::isInstance)
        .map(JsonObject.class::cast)
        .filter(o -> o.getValue("id") instanceof String && o.getValue("version") instanceof String)
        .forEach(o -> all.add(new Interface(o.getString("id"), o.getString("version"))));
    this.requiresOrOptional = List.copyOf(all);
    this.replaces =
        descriptor.replaces().stream()
            .filter(String.class::isInstance)
            .map(r -> ModuleIds.product((String) r))
            .toList();
  }

  static PlanModule of(ModuleDescriptor descriptor) {
    return new PlanModule(descriptor);
  }

  /** Okapi's "regular handler" interface: proxied, neither system ({@code _...}) nor other. */
  private static boolean regular(InterfaceDescriptor i) {
    return !i.id().startsWith("_") && "proxy".equals(i.interfaceType());
  }

  /**
   * @return whether a required interface counts for resolution (not a system one)
   */
  static boolean regular(Interface required) {
    return !required.id().startsWith("_");
  }

  ModuleDescriptor descriptor() {
    return descriptor;
  }

  String id() {
    return moduleId.id();
  }

  ModuleId moduleId() {
    return moduleId;
  }

  String product() {
    return moduleId.product();
  }

  /**
   * @return the regular interfaces it provides
   */
  List<Interface> provides() {
    return provides;
  }

  /**
   * @return the interfaces it requires (not the optional ones)
   */
  List<Interface> requires() {
    return requires;
  }

  /**
   * @return the interfaces it requires, then the optional ones
   */
  List<Interface> requiresOrOptional() {
    return requiresOrOptional;
  }

  /**
   * @return the products it replaces
   */
  List<String> replaces() {
    return replaces;
  }

  /**
   * @return whether every interface it requires is provided, compatibly, by one of them
   */
  boolean requirementsMetBy(Iterable<PlanModule> modules) {
    for (Interface required : requires) {
      if (!providedBy(required, modules)) {
        return false;
      }
    }
    return true;
  }

  private static boolean providedBy(Interface required, Iterable<PlanModule> modules) {
    for (PlanModule m : modules) {
      for (Interface p : m.provides) {
        if (p.id().equals(required.id())
            && InterfaceVersions.compatible(p.version(), required.version())) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * @return whether none of them needs what this module provides (or one replaces it), so it can go
   */
  boolean unneededBy(Iterable<PlanModule> modules) {
    for (PlanModule m : modules) {
      if (m.replaces.contains(product())) {
        return true;
      }
    }
    for (Interface p : provides) {
      for (PlanModule m : modules) {
        for (Interface r : m.requires) {
          if (p.id().equals(r.id()) && InterfaceVersions.compatible(p.version(), r.version())) {
            return false;
          }
        }
      }
    }
    return true;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PlanModule m && id().equals(m.id());
  }

  @Override
  public int hashCode() {
    return id().hashCode();
  }

  @Override
  public String toString() {
    return id();
  }
}
