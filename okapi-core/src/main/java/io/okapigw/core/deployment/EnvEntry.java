package io.okapigw.core.deployment;

import io.okapigw.core.http.HttpError;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Set;

/**
 * A variable of Okapi's {@code /_/env}: given to every module a node deploys, over the launch
 * descriptor's {@code env}.
 *
 * @param name its name
 * @param value its value
 * @param description what it is for; null for none
 */
public record EnvEntry(String name, String value, String description) {

  private static final Set<String> FIELDS = Set.of("name", "value", "description");

  /**
   * Reads an entry as Okapi's {@code EnvEntry}: strings (a number or boolean is taken as its text).
   *
   * @throws HttpError 400 for an unknown field or another type, Okapi's {@code missing name} and
   *     {@code missing value}
   */
  public static EnvEntry fromJson(JsonObject json) {
    for (String field : json.fieldNames()) {
      if (!FIELDS.contains(field)) {
        throw HttpError.badRequest(
            "Unrecognized field \"" + field + "\" of an env entry (name, value, description)");
      }
    }
    String name = text(json, "name");
    String value = text(json, "value");
    if (name == null) {
      throw HttpError.badRequest("missing name");
    }
    if (value == null) {
      throw HttpError.badRequest("missing value");
    }
    return new EnvEntry(name, value, text(json, "description"));
  }

  private static String text(JsonObject json, String field) {
    Object v = json.getValue(field);
    if (v == null) {
      return null;
    }
    if (v instanceof JsonObject || v instanceof JsonArray) {
      throw HttpError.badRequest(field + " of an env entry must be a string");
    }
    return String.valueOf(v);
  }

  /**
   * @return the entry in Okapi's shape ({@code name, value, description}, a missing description
   *     left out)
   */
  public JsonObject toJson() {
    JsonObject json = new JsonObject().put("name", name).put("value", value);
    return description == null ? json : json.put("description", description);
  }
}
