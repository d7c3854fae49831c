package io.okapigw.core.registry;

import io.vertx.core.json.JsonObject;
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

  /** Reads a provided interface of a descriptor in {@link OkapiForm}'s form, as Okapi reads it. */
  static InterfaceDescriptor fromJson(JsonObject json) {
    String id = JsonFields.text(json, "id");
    String version = JsonFields.text(json, "version");
    String type = JsonFields.text(json, "interfaceType");
    return new InterfaceDescriptor(
        id == null ? "" : id,
        version == null ? "" : version,
        type == null ? "proxy" : type,
        JsonFields.objectsIn(json, "handlers").stream()
            .map(h -> RoutingEntry.fromJson(h, false))
            .toList(),
        JsonFields.texts(json, "scope"),
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
