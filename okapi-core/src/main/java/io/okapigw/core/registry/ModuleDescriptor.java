package io.okapigw.core.registry;

import io.okapigw.core.http.HttpError;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Optional;

/**
 * An Okapi module descriptor. The JSON the client posted is kept as Okapi keeps it ({@link
 * OkapiForm}: as its beans write it back), fields Okapi does not know included, and returned on
 * reads; the typed fields are what routing and dependency checks use. {@link #fromPosted} applies
 * Okapi's rules for a new descriptor; {@link #fromJson} reads one already stored (whatever rules
 * applied when it was registered).
 */
public final class ModuleDescriptor {

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
   * Reads a descriptor posted to the admin API, with Okapi 6.1.5's rules for new descriptors (see
   * {@link DescriptorRules}): what its beans can read, a semantic version in the id, valid
   * interface versions and types, handler types and methods, {@code permissionsRequired} on every
   * handler of a non-system interface, ... The descriptor is kept in {@link OkapiForm}'s form.
   *
   * @throws HttpError 400 naming the module, the field and the problem
   */
  public static ModuleDescriptor fromPosted(JsonObject json) {
    DescriptorRules.check(OkapiForm.module(json), json);
    return fromJson(json);
  }

  /**
   * Reads a registered descriptor, whatever rules applied when it was registered: whatever Okapi
   * 6.1.5 or 7.0.x took and stored is read, as Okapi reads it (entries it never matches are kept
   * and never matched, see {@link RoutingEntry#routable}). The descriptor is kept in {@link
   * OkapiForm}'s form.
   *
   * @throws HttpError 400 if it has no id
   */
  public static ModuleDescriptor fromJson(JsonObject posted) {
    JsonObject json = OkapiForm.module(posted);
    String id = JsonFields.text(json, "id");
    if (id == null || id.isEmpty()) {
      throw HttpError.badRequest("module descriptor: missing id");
    }
    List<InterfaceDescriptor> provides =
        JsonFields.objectsIn(json, "provides").stream().map(InterfaceDescriptor::fromJson).toList();
    List<RoutingEntry> filters =
        JsonFields.objectsIn(json, "filters").stream()
            .map(f -> RoutingEntry.fromJson(f, true))
            .toList();
    return new ModuleDescriptor(
        json, id, provides, references(json, "requires"), references(json, "optional"), filters);
  }

  private static List<InterfaceReference> references(JsonObject json, String field) {
    return JsonFields.objectsIn(json, field).stream().map(InterfaceReference::fromJson).toList();
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
   * @return the name of the module's system user, if its descriptor asks for one as Eureka reads it
   *     ({@code "metadata": {"user": {"type": "system"}}}, mgr-applications' {@code
   *     systemUserRequired}): the module's name without its version, as mgr-tenant-entitlements
   *     names the user ({@code mod-foo})
   */
  public Optional<String> systemUser() {
    JsonObject metadata = json.getValue("metadata") instanceof JsonObject m ? m : null;
    JsonObject user =
        metadata != null && metadata.getValue("user") instanceof JsonObject u ? u : null;
    if (user == null || !"system".equals(user.getValue("type"))) {
      return Optional.empty();
    }
    return Optional.of(moduleId().product());
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
   * Okapi's test when a descriptor is posted again ({@code ModuleManager.createList} compares the
   * JSON its beans write): the same descriptor after Okapi's reading (field order, {@code "delay":
   * 20} or {@code "20"}, a {@code null} or an absent field, {@code "delegateCORS": false} are all
   * the same; see {@link OkapiForm}), and the same fields Okapi does not know.
   *
   * @return whether {@code other} is the same descriptor
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
