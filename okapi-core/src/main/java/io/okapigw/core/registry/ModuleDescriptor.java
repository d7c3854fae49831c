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

  /** @return the provided interface with this id, if any */
  public Optional<InterfaceDescriptor> providedInterface(String interfaceId) {
    return provides.stream().filter(i -> i.id().equals(interfaceId)).findFirst();
  }
}
