package io.okapigw.core.registry;

import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * An interface a module provides: id, version and the handlers that implement it.
 *
 * @param interfaceType {@code proxy} (default), {@code system}, {@code multiple}, ...
 * @param scope the descriptor's {@code scope} list (empty if none)
 * @param json the interface as posted (read through {@link #json()}, a copy)
 */
public record InterfaceDescriptor(
    String id,
    String version,
    String interfaceType,
    List<RoutingEntry> handlers,
    List<String> scope,
    JsonObject json) {

  static InterfaceDescriptor fromJson(JsonObject json, String where) {
    String id = JsonFields.requiredString(json, "id", where);
    String version = JsonFields.requiredString(json, "version", where);
    String type = JsonFields.optionalString(json, "interfaceType", where);
    List<JsonObject> entries = JsonFields.objects(json, "handlers", where);
    List<RoutingEntry> handlers = new ArrayList<>(entries.size());
    for (int i = 0; i < entries.size(); i++) {
      handlers.add(RoutingEntry.fromJson(entries.get(i), where + ".handlers[" + i + "]", false));
    }
    return new InterfaceDescriptor(
        id,
        version,
        type == null ? "proxy" : type,
        List.copyOf(handlers),
        JsonFields.strings(json, "scope", where),
        json.copy());
  }

  /**
   * @return the interface as posted (a copy)
   */
  @Override
  public JsonObject json() {
    return json.copy();
  }

  /**
   * @return whether this is a system interface ({@code _tenant}, {@code _timer}, ...)
   */
  public boolean isSystem() {
    return "system".equals(interfaceType) || id.startsWith("_");
  }

  /**
   * Okapi's {@code ?type=} test: an interface whose id starts with {@code _} is of type {@code
   * system} whatever it says; otherwise its {@code interfaceType}, {@code proxy} if none.
   */
  public boolean isType(String type) {
    return type.equals(id.startsWith("_") ? "system" : interfaceType);
  }
}
