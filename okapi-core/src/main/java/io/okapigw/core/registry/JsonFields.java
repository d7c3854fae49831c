package io.okapigw.core.registry;

import io.okapigw.core.http.HttpError;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/** Typed reads of descriptor fields that fail with a 400 naming the field. */
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
