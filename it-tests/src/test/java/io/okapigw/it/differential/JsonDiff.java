package io.okapigw.it.differential;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The first place where two JSON values differ: members compared by name (their order does not
 * matter in JSON), array elements in order, numbers by value.
 */
final class JsonDiff {

  private JsonDiff() {}

  /**
   * @param ignored member names left out wherever they occur
   * @return null if equal, else {@code path: okapi's | ours}
   */
  static String first(Object okapi, Object ours, Set<String> ignored) {
    return first("$", okapi, ours, ignored);
  }

  private static String first(String path, Object a, Object b, Set<String> ignored) {
    if (a instanceof JsonObject x && b instanceof JsonObject y) {
      return objects(path, x, y, ignored);
    }
    if (a instanceof JsonArray x && b instanceof JsonArray y) {
      for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
        String found = first(path + "[" + i + "]", x.getValue(i), y.getValue(i), ignored);
        if (found != null) {
          return found;
        }
      }
      return x.size() == y.size()
          ? null
          : path + ": " + x.size() + " elements | " + y.size() + " elements";
    }
    if (a instanceof Number x && b instanceof Number y) {
      return x.doubleValue() == y.doubleValue() ? null : path + ": " + x + " | " + y;
    }
    return Objects.equals(a, b) ? null : path + ": " + brief(a) + " | " + brief(b);
  }

  private static String objects(String path, JsonObject a, JsonObject b, Set<String> ignored) {
    Set<String> names = new TreeSet<>(a.fieldNames());
    names.addAll(b.fieldNames());
    names.removeAll(ignored);
    for (String name : names) {
      String member = path + "." + name;
      if (!a.containsKey(name)) {
        return member + ": absent | " + brief(b.getValue(name));
      }
      if (!b.containsKey(name)) {
        return member + ": " + brief(a.getValue(name)) + " | absent";
      }
      String found = first(member, a.getValue(name), b.getValue(name), ignored);
      if (found != null) {
        return found;
      }
    }
    return null;
  }

  private static String brief(Object value) {
    String text =
        value instanceof String s
            ? '"' + s + '"'
            : value instanceof JsonObject o ? o.encode() : String.valueOf(value);
    return text.length() > 60 ? text.substring(0, 57) + "..." : text;
  }
}
