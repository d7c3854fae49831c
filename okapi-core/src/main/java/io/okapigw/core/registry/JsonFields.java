package io.okapigw.core.registry;

import io.okapigw.core.http.HttpError;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * Typed reads of descriptor fields: strict ones that fail with a 400 naming the field (for what a
 * client posts), and lenient ones that take what is there (for descriptors already registered,
 * which Okapi may have taken with less than is checked today).
 */
final class JsonFields {

  private JsonFields() {}

  static String requiredString(JsonObject json, String field, String where) {
    String value = optionalString(json, field, where);
    if (value == null || value.isBlank()) {
      throw HttpError.badRequest(where + ": missing " + field);
    }
    return value;
  }

  static String optionalString(JsonObject json, String field, String where) {
    Object value = json.getValue(field);
    if (value == null) {
      return null;
    }
    if (!(value instanceof String s)) {
      throw HttpError.badRequest(where + ": " + field + " must be a string");
    }
    return s;
  }

  static List<String> strings(JsonObject json, String field, String where) {
    JsonArray array = array(json, field, where);
    List<String> result = new ArrayList<>(array.size());
    for (int i = 0; i < array.size(); i++) {
      Object value = array.getValue(i);
      if (!(value instanceof String s)) {
        throw HttpError.badRequest(where + ": " + field + "[" + i + "] must be a string");
      }
      result.add(s);
    }
    return List.copyOf(result);
  }

  static List<JsonObject> objects(JsonObject json, String field, String where) {
    JsonArray array = array(json, field, where);
    List<JsonObject> result = new ArrayList<>(array.size());
    for (int i = 0; i < array.size(); i++) {
      Object value = array.getValue(i);
      if (!(value instanceof JsonObject o)) {
        throw HttpError.badRequest(where + ": " + field + "[" + i + "] must be an object");
      }
      result.add(o);
    }
    return result;
  }

  /**
   * @return the field if it is a string, else null
   */
  static String text(JsonObject json, String field) {
    return json.getValue(field) instanceof String s ? s : null;
  }

  /**
   * @return the strings of the field (an array; anything else counts as none), other elements left
   *     out
   */
  static List<String> texts(JsonObject json, String field) {
    return elements(json, field, String.class);
  }

  /**
   * @return the objects of the field (an array; anything else counts as none), other elements left
   *     out
   */
  static List<JsonObject> objectsIn(JsonObject json, String field) {
    return elements(json, field, JsonObject.class);
  }

  private static <T> List<T> elements(JsonObject json, String field, Class<T> type) {
    List<T> result = new ArrayList<>();
    if (json.getValue(field) instanceof JsonArray array) {
      array.forEach(
          e -> {
            if (type.isInstance(e)) {
              result.add(type.cast(e));
            }
          });
    }
    return List.copyOf(result);
  }

  private static JsonArray array(JsonObject json, String field, String where) {
    Object value = json.getValue(field);
    if (value == null) {
      return new JsonArray();
    }
    if (!(value instanceof JsonArray a)) {
      throw HttpError.badRequest(where + ": " + field + " must be an array");
    }
    return a;
  }
}
