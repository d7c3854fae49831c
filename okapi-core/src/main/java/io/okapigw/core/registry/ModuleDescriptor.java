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
 * and returned on reads; the typed fields are what routing and dependency checks use. {@link
 * #fromPosted} applies Okapi's rules for a new descriptor; {@link #fromJson} reads one already
 * stored (whatever rules applied when it was registered).
 */
public final class ModuleDescriptor {

  private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._+-]{0,254}");

  private final JsonObject json;
  private final String id;
  private final List<InterfaceDescriptor> provides;
  private final List<InterfaceReference> requires;
  private final List<InterfaceReference> optional;
  private final List<RoutingEntry> filters;

  private ModuleDescriptor(
      JsonObject json,
      String id,
      List<InterfaceDescriptor> provides,
      List<InterfaceReference> requires,
      List<InterfaceReference> optional,
      List<RoutingEntry> filters) {
    this.json = json;
    this.id = id;
    this.provides = provides;
    this.requires = requires;
    this.optional = optional;
    this.filters = filters;
  }

  /**
   * Parses a descriptor posted to the admin API and applies Okapi 6.1.5's rules for new descriptors
   * (see {@link DescriptorRules}): a semantic version in the id, valid interface versions and
   * types, handler types and methods, {@code permissionsRequired} on every handler of a non-system
   * interface, ...
   *
   * @throws HttpError 400 naming the module, the field and the problem
   */
  public static ModuleDescriptor fromPosted(JsonObject json) {
    ModuleDescriptor module = fromJson(json);
    DescriptorRules.check(module.json, module.id);
    return module;
  }

  /**
   * Parses and validates a descriptor.
   *
   * @throws HttpError 400 naming the first invalid field
   */
  public static ModuleDescriptor fromJson(JsonObject json) {
    String id = JsonFields.requiredString(json, "id", "module descriptor");
    if (!ID.matcher(id).matches()) {
      throw HttpError.badRequest(
          "module descriptor: invalid id '"
              + id
              + "' (letters, digits, '.', '_', '+', '-'; e.g. mod-users-19.2.0)");
    }
    String where = "module " + id;
    List<InterfaceDescriptor> provides = new ArrayList<>();
    List<JsonObject> provided = JsonFields.objects(json, "provides", where);
    for (int i = 0; i < provided.size(); i++) {
      provides.add(InterfaceDescriptor.fromJson(provided.get(i), where + ": provides[" + i + "]"));
    }
    List<InterfaceReference> requires = references(json, "requires", where);
    List<InterfaceReference> optional = references(json, "optional", where);
    List<RoutingEntry> filters = new ArrayList<>();
    List<JsonObject> filterJson = JsonFields.objects(json, "filters", where);
    for (int i = 0; i < filterJson.size(); i++) {
      filters.add(RoutingEntry.fromJson(filterJson.get(i), where + ": filters[" + i + "]", true));
    }
    JsonFields.objects(json, "permissionSets", where);
    return new ModuleDescriptor(
        json.copy(), id, List.copyOf(provides), requires, optional, List.copyOf(filters));
  }

  private static List<InterfaceReference> references(JsonObject json, String field, String where) {
    List<JsonObject> entries = JsonFields.objects(json, field, where);
    List<InterfaceReference> references = new ArrayList<>(entries.size());
    for (int i = 0; i < entries.size(); i++) {
      references.add(
          InterfaceReference.fromJson(entries.get(i), where + ": " + field + "[" + i + "]"));
    }
    return List.copyOf(references);
  }

  public String id() {
    return id;
  }

  /**
   * @return the id as Okapi orders and filters it (lenient for ids stored before checks)
   */
  public ModuleId moduleId() {
    return ModuleId.lenient(id);
  }

  /**
   * @return the descriptor as posted (a copy)
   */
  public JsonObject toJson() {
    return json.copy();
  }

  /**
   * @return what Okapi lists without {@code ?full=true}: the id, and the name and tags when the
   *     descriptor has them
   */
  public JsonObject toSummaryJson() {
    JsonObject summary = new JsonObject().put("id", id);
    for (String field : List.of("name", "tags")) {
      if (json.getValue(field) != null) {
        summary.put(field, json.getValue(field));
      }
    }
    return summary.copy();
  }

  /**
   * @return whether {@code other} is the same descriptor, field for field
   */
  public boolean sameAs(ModuleDescriptor other) {
    return json.equals(other.json);
  }

  public List<InterfaceDescriptor> provides() {
    return provides;
  }

  public List<InterfaceReference> requires() {
    return requires;
  }

  /**
   * @return the interfaces used when present ({@code optional}): if there, they must fit
   */
  public List<InterfaceReference> optional() {
    return optional;
  }

  public List<RoutingEntry> filters() {
    return filters;
  }

  /**
   * @return the descriptor's {@code permissionSets}, as posted (a copy)
   */
  public JsonArray permissionSets() {
    JsonArray sets = json.getJsonArray("permissionSets");
    return sets == null ? new JsonArray() : sets.copy();
  }

  /**
   * Okapi's expanded permission sets: the descriptor's own, then one system-generated set ({@code
   * SYS#...}, invisible) per handler or filter with module permissions, whose sub-permissions are
   * those module permissions.
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
    sets.add(
        new JsonObject()
            .put("permissionName", name)
            .put("displayName", "System generated: " + name)
            .put("description", "System generated permission set")
            .put("subPermissions", new JsonArray(entry.modulePermissions()))
            .put("visible", false));
  }

  /**
   * @return the ids of the modules this one replaces ({@code replaces}), as posted
   */
  public JsonArray replaces() {
    JsonArray replaces = json.getJsonArray("replaces");
    return replaces == null ? new JsonArray() : replaces.copy();
  }

  /**
   * @return the first filter of phase {@code auth}, if the module is an auth module
   */
  public Optional<RoutingEntry> authFilter() {
    return filters.stream().filter(f -> "auth".equals(f.phase())).findFirst();
  }

  /**
   * @return the provided interface with this id, if any
   */
  public Optional<InterfaceDescriptor> providedInterface(String interfaceId) {
    return provides.stream().filter(i -> i.id().equals(interfaceId)).findFirst();
  }
}
