package io.okapigw.core.deployment;

import io.okapigw.core.http.HttpError;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Set;
import java.util.regex.Pattern;

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

  /** POSIX's environment variable names (stricter than Okapi 6.1.5, which takes any name). */
  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  /**
   * Reads an entry as Okapi's {@code EnvEntry}: strings (a number or boolean is taken as its text).
   *
   * @throws HttpError 400 for an unknown field or another type, Okapi's {@code missing name} and
   *     {@code missing value}, a name that is not an environment variable's ({@code
   *     [A-Za-z_][A-Za-z0-9_]*}: no {@code =}, no NUL, which no process environment can hold) or a
   *     value with NUL
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
    if (!NAME.matcher(name).matches()) {
      throw HttpError.badRequest(
          "env name "
              + Json.encode(name)
              + " is not an environment variable name: a letter or _, then letters, digits or _");
    }
    if (value.indexOf('\0') >= 0) {
      throw HttpError.badRequest("env value of " + name + " has a NUL character");
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
