package io.okapigw.core.deployment;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * Okapi's percent variables in {@code dockerArgs}: {@code %p} the module's port, {@code %c} the
 * container host, {@code %%} a percent sign; a percent sign before any other character is dropped
 * with it. Replaced in every string value of the JSON tree (never in keys), never twice.
 */
final class Percent {

  private Percent() {}

  /**
   * @return {@code json} (an object, an array or a string) with its variables replaced; other
   *     values as they are
   */
  static Object replace(Object json, String port, String containerHost) {
    if (json instanceof String text) {
      return replace(text, port, containerHost);
    }
    if (json instanceof JsonObject object) {
      JsonObject replaced = new JsonObject();
      object.forEach(e -> replaced.put(e.getKey(), replace(e.getValue(), port, containerHost)));
      return replaced;
    }
    if (json instanceof JsonArray array) {
      JsonArray replaced = new JsonArray();
      array.forEach(v -> replaced.add(replace(v, port, containerHost)));
      return replaced;
    }
    return json;
  }

  static String replace(String text, String port, String containerHost) {
    StringBuilder out = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c != '%') {
        out.append(c);
        continue;
      }
      if (++i == text.length()) {
        break;
      }
      switch (text.charAt(i)) {
        case 'p' -> out.append(port == null ? "" : port);
        case 'c' -> out.append(containerHost == null ? "" : containerHost);
        case '%' -> out.append('%');
        default -> {
          // an undefined variable becomes nothing, as in Okapi
        }
      }
    }
    return out.toString();
  }
}
