package io.okapigw.core.storage;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * JSON as Okapi 6.1.5 and 7.0.x read it back from their tables: their beans ({@code
 * ModuleDescriptor}, {@code InterfaceDescriptor}, {@code RoutingEntry}, {@code Permission}, {@code
 * LaunchDescriptor}, {@code TenantDescriptor}, {@code TimerDescriptor}, ...) are read by Jackson,
 * which fails on a property it does not know. This gateway keeps descriptors as posted, unknown
 * fields included, so what goes into Okapi's tables is the descriptor cut down to the properties
 * Okapi's beans have (by their setters), of the types Jackson reads into them; the descriptor as
 * posted is kept beside it when the two differ.
 */
final class OkapiJson {

  /** Keeps a value Okapi reads into the property's type; null: leave the property out. */
  private interface Shape extends UnaryOperator<Object> {}

  private static final Shape TEXT =
      v -> v instanceof String || v instanceof Number || v instanceof Boolean ? v : null;
  private static final Shape BOOL = v -> v instanceof Boolean ? v : null;
  private static final Shape INT =
      v -> v instanceof Integer || v instanceof Long l && l == l.intValue() ? v : null;
  private static final Shape ANY_OBJECT = v -> v instanceof JsonObject ? v : null;
  private static final Shape TEXTS =
      v -> v instanceof JsonArray a && a.stream().allMatch(e -> TEXT.apply(e) != null) ? v : null;

  private static final Shape SCHEDULE = object(Map.of("cron", TEXT, "zone", TEXT));

  private static final Shape ROUTING_ENTRY =
      object(
          Map.ofEntries(
              Map.entry("methods", TEXTS),
              Map.entry("pathPattern", TEXT),
              Map.entry("path", TEXT),
              Map.entry("rewritePath", TEXT),
              Map.entry("phase", TEXT),
              Map.entry("level", TEXT),
              Map.entry("type", TEXT),
              Map.entry("redirectPath", TEXT),
              Map.entry("unit", TEXT),
              Map.entry("delay", TEXT),
              Map.entry("schedule", SCHEDULE),
              Map.entry("permissionsRequired", TEXTS),
              Map.entry("permissionsDesired", TEXTS),
              Map.entry("modulePermissions", TEXTS),
              Map.entry("permissionsRequiredTenant", TEXTS),
              Map.entry("delegateCORS", BOOL)));

  private static final Shape INTERFACE =
      object(
          Map.of(
              "id", TEXT,
              "version", TEXT,
              "interfaceType", TEXT,
              "handlers", arrayOf(ROUTING_ENTRY),
              "scope", TEXTS));

  private static final Shape PERMISSION =
      object(
          Map.of(
              "permissionName", TEXT,
              "displayName", TEXT,
              "description", TEXT,
              "subPermissions", TEXTS,
              "replaces", TEXTS,
              "visible", BOOL));

  private static final Shape ENV = object(Map.of("name", TEXT, "value", TEXT, "description", TEXT));

  private static final Shape LAUNCH =
      object(
          Map.of(
              "cmdlineStart", TEXT,
              "cmdlineStop", TEXT,
              "exec", TEXT,
              "dockerImage", TEXT,
              "dockerPull", BOOL,
              "dockerCMD", TEXTS,
              "env", arrayOf(ENV),
              "dockerArgs", ANY_OBJECT,
              "waitIterations", INT));

  private static final Shape MODULE =
      object(
          Map.ofEntries(
              Map.entry("id", TEXT),
              Map.entry("name", TEXT),
              Map.entry("tags", TEXTS),
              Map.entry("requires", arrayOf(INTERFACE)),
              Map.entry("provides", arrayOf(INTERFACE)),
              Map.entry("optional", arrayOf(INTERFACE)),
              Map.entry("filters", arrayOf(ROUTING_ENTRY)),
              Map.entry("permissionSets", arrayOf(PERMISSION)),
              Map.entry("env", arrayOf(ENV)),
              Map.entry("metadata", ANY_OBJECT),
              Map.entry(
                  "uiDescriptor",
                  object(Map.of("npm", TEXT, "url", TEXT, "local", TEXT, "args", TEXT))),
              Map.entry("launchDescriptor", LAUNCH),
              Map.entry("replaces", TEXTS)));

  private static final Shape TENANT = object(Map.of("id", TEXT, "name", TEXT, "description", TEXT));

  private OkapiJson() {}

  /**
   * @return the module descriptor as Okapi's {@code modules.modulejson} holds it
   */
  static JsonObject module(JsonObject descriptor) {
    return (JsonObject) MODULE.apply(descriptor);
  }

  /**
   * @return the tenant descriptor as Okapi's {@code tenants.tenantjson -> 'descriptor'} holds it
   */
  static JsonObject tenant(JsonObject descriptor) {
    return (JsonObject) TENANT.apply(descriptor);
  }

  /**
   * @return a routing entry as Okapi's {@code timers.json -> 'routingEntry'} holds it
   */
  static JsonObject routingEntry(JsonObject entry) {
    return (JsonObject) ROUTING_ENTRY.apply(entry);
  }

  /** An object keeping the properties it knows, each cut to its shape, in the given order. */
  private static Shape object(Map<String, Shape> properties) {
    return v -> {
      if (!(v instanceof JsonObject json)) {
        return null;
      }
      JsonObject kept = new JsonObject();
      json.forEach(
          e -> {
            Shape shape = properties.get(e.getKey());
            Object value = shape == null || e.getValue() == null ? null : shape.apply(e.getValue());
            if (value != null) {
              kept.put(e.getKey(), value);
            }
          });
      return kept;
    };
  }

  /** An array keeping the elements of its shape. */
  private static Shape arrayOf(Shape element) {
    return v -> {
      if (!(v instanceof JsonArray array)) {
        return null;
      }
      JsonArray kept = new JsonArray();
      array.forEach(
          e -> {
            Object value = e == null ? null : element.apply(e);
            if (value != null) {
              kept.add(value);
            }
          });
      return kept;
    };
  }
}
