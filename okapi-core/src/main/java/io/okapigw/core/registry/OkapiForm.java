package io.okapigw.core.registry;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Descriptors as Okapi 6.1.5 and 7.0.x read and write them: Jackson reads a posted descriptor (or a
 * row of its tables) into Okapi's beans ({@code ModuleDescriptor}, {@code InterfaceDescriptor},
 * {@code RoutingEntry}, {@code Permission}, {@code LaunchDescriptor}, ...) and writes the beans
 * back. On the way a number or boolean becomes a string where a bean holds a string ({@code
 * "delay": 20} is {@code "20"}), {@code "true"} a boolean where it holds a boolean, a property that
 * is {@code null} disappears, and so do Okapi's defaults ({@code "delegateCORS": false}, {@code
 * "replaces": []}); a property a bean does not have, or a value it cannot read, fails. One
 * definition of those beans, three uses:
 *
 * <ul>
 *   <li>{@link #module}: the descriptor as Okapi writes it back, with the properties Okapi does not
 *       know kept as they are (this gateway keeps them): what is stored, served and compared, so
 *       that a descriptor posted again is the same one when Okapi would say so (its {@code
 *       ModuleManager.createList} compares the beans' JSON);
 *   <li>{@link #moduleRow}, {@link #tenantRow}, {@link #routingEntryRow}: only what Okapi's beans
 *       read, for Okapi's tables, which Okapi reads with Jackson;
 *   <li>{@link #unreadable}: where a posted descriptor has a value Okapi's beans cannot read (Okapi
 *       answers 400).
 * </ul>
 *
 * <p>A float is written as Java writes the double ({@code 1.10} as {@code "1.1"}; Jackson keeps the
 * text as posted).
 */
public final class OkapiForm {

  /** What Okapi writes for a property holding its default: nothing. */
  private static final Object NOTHING = new Object();

  /** Reads one value as a bean property of some type. */
  private interface Shape {
    /**
     * @return the value as Okapi writes it back, {@link #NOTHING}, or {@code null} if Okapi's bean
     *     cannot read it
     */
    Object read(Object value, Walk walk, String where);
  }

  /** A property whose setter fails on {@code null} (Okapi answers 400 to an explicit null). */
  private record NotNull(Shape shape) implements Shape {
    @Override
    public Object read(Object value, Walk walk, String where) {
      return shape.read(value, walk, where);
    }
  }

  /** One pass over a descriptor: which form, and the first value Okapi cannot read. */
  private static final class Walk {
    private final boolean okapiOnly;
    private String problem;

    private Walk(boolean okapiOnly) {
      this.okapiOnly = okapiOnly;
    }

    /** A value Okapi cannot read: left out of Okapi's form, kept as it is in ours. */
    private Object unreadable(Object value, String where, String expected) {
      problem(where + " must be " + expected);
      return okapiOnly ? NOTHING : value;
    }

    private void problem(String problem) {
      if (this.problem == null) {
        this.problem = problem;
      }
    }
  }

  private static final Shape TEXT = scalar("a string", OkapiForm::text);
  private static final Shape BOOL = scalar("true or false", OkapiForm::bool);
  private static final Shape INT = scalar("a whole number", OkapiForm::integer);
  private static final Shape TRUE_OR_NOTHING =
      scalar(
          "true or false",
          v -> Boolean.TRUE.equals(bool(v)) ? true : bool(v) == null ? null : NOTHING);
  private static final Shape TEXTS = arrayOf(TEXT, true);
  private static final Shape TEXTS_OR_NOTHING =
      (v, walk, where) -> {
        Object read = TEXTS.read(v, walk, where);
        return read instanceof JsonArray a && a.isEmpty() ? NOTHING : read;
      };
  private static final Shape ANY_OBJECT =
      (v, walk, where) -> v instanceof JsonObject ? v : walk.unreadable(v, where, "an object");

  // Each bean's properties in the order Okapi writes them (its fields' order).

  private static final Shape ROUTING_ENTRY =
      object(
          "methods", new NotNull(TEXTS),
          "pathPattern", new NotNull(TEXT),
          "path", TEXT,
          "rewritePath", TEXT,
          "phase", TEXT,
          "level", TEXT,
          "type", new NotNull(TEXT),
          "redirectPath", TEXT,
          "unit", TEXT,
          "delay", TEXT,
          "schedule", object("cron", new NotNull(TEXT), "zone", new NotNull(TEXT)),
          "permissionsRequired", TEXTS,
          "permissionsDesired", TEXTS,
          "modulePermissions", TEXTS,
          "permissionsRequiredTenant", TEXTS,
          "delegateCORS", TRUE_OR_NOTHING);

  private static final Shape INTERFACE =
      object(
          "id", TEXT,
          "version", new NotNull(TEXT),
          "interfaceType", TEXT,
          "handlers", arrayOf(ROUTING_ENTRY, false),
          "scope", TEXTS);

  private static final Shape PERMISSION =
      object(
          "permissionName", TEXT,
          "replaces", TEXTS,
          "displayName", TEXT,
          "description", TEXT,
          "subPermissions", TEXTS,
          "visible", BOOL);

  private static final Shape ENV = object("name", TEXT, "value", TEXT, "description", TEXT);

  private static final Shape LAUNCH =
      object(
          "cmdlineStart", TEXT,
          "cmdlineStop", TEXT,
          "exec", TEXT,
          "dockerImage", TEXT,
          "dockerPull", BOOL,
          "dockerCMD", TEXTS,
          "env", arrayOf(ENV, false),
          "dockerArgs", ANY_OBJECT,
          "waitIterations", INT);

  private static final Shape MODULE =
      object(
          "id",
          new NotNull(TEXT),
          "name",
          TEXT,
          "tags",
          TEXTS,
          "requires",
          arrayOf(INTERFACE, false),
          "provides",
          new NotNull(arrayOf(INTERFACE, false)),
          "optional",
          arrayOf(INTERFACE, false),
          "filters",
          arrayOf(ROUTING_ENTRY, false),
          "permissionSets",
          arrayOf(PERMISSION, false),
          "env",
          arrayOf(ENV, false),
          "metadata",
          ANY_OBJECT,
          "uiDescriptor",
          object("npm", TEXT, "url", TEXT, "local", TEXT, "args", TEXT),
          "launchDescriptor",
          LAUNCH,
          "replaces",
          TEXTS_OR_NOTHING);

  private static final Shape TENANT = object("id", TEXT, "name", TEXT, "description", TEXT);

  private OkapiForm() {}

  /**
   * @return the module descriptor as Okapi writes it back, the properties Okapi does not know kept
   *     as they are, and a value Okapi cannot read kept as it is (a copy)
   */
  public static JsonObject module(JsonObject descriptor) {
    return (JsonObject) MODULE.read(descriptor, new Walk(false), "");
  }

  /**
   * @return the module descriptor as Okapi's {@code modules.modulejson} holds it: only what Okapi's
   *     beans read
   */
  public static JsonObject moduleRow(JsonObject descriptor) {
    return (JsonObject) MODULE.read(descriptor, new Walk(true), "");
  }

  /**
   * @return the tenant descriptor as Okapi's {@code tenants.tenantjson -> 'descriptor'} holds it
   */
  public static JsonObject tenantRow(JsonObject descriptor) {
    return (JsonObject) TENANT.read(descriptor, new Walk(true), "");
  }

  /**
   * @return a routing entry as Okapi's {@code timers.json -> 'routingEntry'} holds it
   */
  public static JsonObject routingEntryRow(JsonObject entry) {
    return (JsonObject) ROUTING_ENTRY.read(entry, new Walk(true), "");
  }

  /**
   * @return where the descriptor first has a value Okapi's beans cannot read, and what they take
   *     there ({@code provides[0].handlers[1].methods[0] must be a string}); empty if none
   */
  static Optional<String> unreadable(JsonObject descriptor) {
    Walk walk = new Walk(false);
    MODULE.read(descriptor, walk, "");
    return Optional.ofNullable(walk.problem).map(p -> p.startsWith(".") ? p.substring(1) : p);
  }

  private static Shape scalar(String expected, java.util.function.UnaryOperator<Object> coerce) {
    return (v, walk, where) -> {
      Object read = coerce.apply(v);
      return read == null ? walk.unreadable(v, where, expected) : read;
    };
  }

  /** Jackson's String from a JSON scalar: the text of a number or boolean. */
  private static Object text(Object v) {
    if (v instanceof String) {
      return v;
    }
    return v instanceof Number || v instanceof Boolean ? String.valueOf(v) : null;
  }

  /** Jackson's Boolean: {@code true}, {@code false}, their text, or a whole number (0 is false). */
  private static Boolean bool(Object v) {
    if (v instanceof Boolean b) {
      return b;
    }
    if ("true".equals(v) || "false".equals(v)) {
      return Boolean.valueOf((String) v);
    }
    return v instanceof Integer || v instanceof Long ? ((Number) v).longValue() != 0 : null;
  }

  /** Jackson's Integer: a whole number, or its text. */
  private static Object integer(Object v) {
    BigDecimal number;
    try {
      number =
          v instanceof String s
              ? new BigDecimal(s.trim())
              : v instanceof Number n ? new BigDecimal(n.toString()) : null;
    } catch (NumberFormatException e) {
      return null;
    }
    if (number == null || number.stripTrailingZeros().scale() > 0) {
      return null;
    }
    BigInteger whole = number.toBigIntegerExact();
    return whole.bitLength() < 32 ? whole.intValue() : null;
  }

  /**
   * An object: its known properties read by their shapes, in the bean's order, then (in ours only)
   * the others as they are.
   *
   * @param properties name, shape, name, shape, ...
   */
  private static Shape object(Object... properties) {
    Map<String, Shape> shapes = new LinkedHashMap<>();
    for (int i = 0; i < properties.length; i += 2) {
      shapes.put((String) properties[i], (Shape) properties[i + 1]);
    }
    return (v, walk, where) -> {
      if (!(v instanceof JsonObject json)) {
        return walk.unreadable(v, where, "an object");
      }
      JsonObject read = new JsonObject();
      shapes.forEach(
          (name, shape) -> {
            Object value = json.getValue(name);
            String at = where + "." + name;
            if (value == null && json.containsKey(name) && shape instanceof NotNull) {
              walk.problem(at + " must not be null");
            }
            value = value == null ? NOTHING : shape.read(value, walk, at);
            if (value != NOTHING) {
              read.put(name, value);
            }
          });
      if (!walk.okapiOnly) {
        json.forEach(
            e -> {
              if (!shapes.containsKey(e.getKey())) {
                read.put(e.getKey(), e.getValue());
              }
            });
      }
      return read;
    };
  }

  /**
   * An array: each element read by its shape. A {@code null} element stays where the bean holds
   * strings (Okapi writes it back); among objects Okapi cannot read it.
   */
  private static Shape arrayOf(Shape element, boolean nullsRead) {
    return (v, walk, where) -> {
      if (!(v instanceof JsonArray array)) {
        return walk.unreadable(v, where, "an array");
      }
      JsonArray read = new JsonArray();
      for (int i = 0; i < array.size(); i++) {
        Object e = array.getValue(i);
        Object value =
            e != null
                ? element.read(e, walk, where + "[" + i + "]")
                : nullsRead ? null : walk.unreadable(null, where + "[" + i + "]", "an object");
        if (value != NOTHING) {
          read.add(value);
        }
      }
      return read;
    };
  }
}
