package io.okapigw.core.registry;

import io.okapigw.core.http.HttpError;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * An Okapi module descriptor. The JSON the client posted is kept as-is (unknown fields included)
 * and returned on reads; the typed fields are what routing and dependency checks use.
 */
public final class ModuleDescriptor {

  private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._+-]{0,254}");

  private final JsonObject json;
  private final String id;
  private final List<InterfaceDescriptor> provides;
  private final List<InterfaceReference> requires;
  private final List<RoutingEntry> filters;

  private ModuleDescriptor(JsonObject json, String id, List<InterfaceDescriptor> provides,
      List<InterfaceReference> requires, List<RoutingEntry> filters) {
    this.json = json;
    this.id = id;
    this.provides = provides;
    this.requires = requires;
    this.filters = filters;
  }

  /**
   * Parses and validates a descriptor.
   *
   * @throws HttpError 400 naming the first invalid field
   */
  public static ModuleDescriptor fromJson(JsonObject json) {
    String id = JsonFields.requiredString(json, "id", "module descriptor");
    if (!ID.matcher(id).matches()) {
      throw HttpError.badRequest("module descriptor: invalid id '" + id
          + "' (letters, digits, '.', '_', '+', '-'; e.g. mod-users-19.2.0)");
    }
    String where = "module " + id;
    List<InterfaceDescriptor> provides = new ArrayList<>();
    List<JsonObject> provided = JsonFields.objects(json, "provides", where);
    for (int i = 0; i < provided.size(); i++) {
      provides.add(InterfaceDescriptor.fromJson(provided.get(i), where + ": provides[" + i + "]"));
    }
    List<InterfaceReference> requires = new ArrayList<>();
    List<JsonObject> required = JsonFields.objects(json, "requires", where);
    for (int i = 0; i < required.size(); i++) {
      requires.add(InterfaceReference.fromJson(required.get(i), where + ": requires[" + i + "]"));
    }
    List<RoutingEntry> filters = new ArrayList<>();
    List<JsonObject> filterJson = JsonFields.objects(json, "filters", where);
    for (int i = 0; i < filterJson.size(); i++) {
      filters.add(RoutingEntry.fromJson(filterJson.get(i), where + ": filters[" + i + "]", true));
    }
    JsonFields.objects(json, "permissionSets", where);
    return new ModuleDescriptor(json.copy(), id, List.copyOf(provides), List.copyOf(requires),
        List.copyOf(filters));
  }

  public String id() {
    return id;
  }

  /** @return the descriptor as posted (a copy) */
  public JsonObject toJson() {
    return json.copy();
  }

  public List<InterfaceDescriptor> provides() {
    return provides;
  }

  public List<InterfaceReference> requires() {
    return requires;
  }

  public List<RoutingEntry> filters() {
    return filters;
  }

  /** @return the descriptor's {@code permissionSets}, as posted (a copy) */
  public JsonArray permissionSets() {
    JsonArray sets = json.getJsonArray("permissionSets");
    return sets == null ? new JsonArray() : sets.copy();
  }

  /**
   * Okapi's expanded permission sets: the descriptor's own, then one system-generated set
   * ({@code SYS#...}, invisible) per handler or filter with module permissions, whose
   * sub-permissions are those module permissions.
   *
   * @return the sets (a copy), empty if the module has none
   */
  public JsonArray expandedPermissionSets() {
    JsonArray sets = permissionSets();
    provides.forEach(itf -> itf.handlers().forEach(h -> addSystemSet(sets, h)));
    filters.forEach(f -> addSystemSet(sets, f));
    return sets;
  }

  private void addSystemSet(JsonArray sets, RoutingEntry entry) {
    if (entry.modulePermissions().isEmpty()) {
      return;
    }
    String name = entry.systemPermissionName(id);
    sets.add(new JsonObject().put("permissionName", name)
        .put("displayName", "System generated: " + name)
        .put("description", "System generated permission set")
        .put("subPermissions", new JsonArray(entry.modulePermissions()))
        .put("visible", false));
  }

  /** @return the ids of the modules this one replaces ({@code replaces}), as posted */
  public JsonArray replaces() {
    JsonArray replaces = json.getJsonArray("replaces");
    return replaces == null ? new JsonArray() : replaces.copy();
  }

  /** @return the first filter of phase {@code auth}, if the module is an auth module */
  public Optional<RoutingEntry> authFilter() {
    return filters.stream().filter(f -> "auth".equals(f.phase())).findFirst();
  }

  /** @return the provided interface with this id, if any */
  public Optional<InterfaceDescriptor> providedInterface(String interfaceId) {
    return provides.stream().filter(i -> i.id().equals(interfaceId)).findFirst();
  }
}
