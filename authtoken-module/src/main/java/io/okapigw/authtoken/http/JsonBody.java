package io.okapigw.authtoken.http;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.ArrayList;
import java.util.List;

/**
 * A request body that must be a JSON object, with typed field getters that answer 400 (not JSON) or
 * 422 (missing or mistyped field, naming it) instead of failing with a 500.
 */
public final class JsonBody {
  /** Longest permission name accepted. */
  public static final int MAX_NAME_LENGTH = 256;

  /** Most entries accepted in one list. */
  public static final int MAX_LIST_SIZE = 10_000;

  private final JsonObject json;

  private JsonBody(JsonObject json) {
    this.json = json;
  }

  /**
   * @param ctx routing context whose body was read by a BodyHandler
   * @return the body
   * @throws ApiException 400 if the body is empty or not a JSON object
   */
  public static JsonBody of(RoutingContext ctx) {
    Object value = parse(ctx.body().buffer());
    if (!(value instanceof JsonObject object)) {
      throw ApiException.badRequest("request body must be a JSON object");
    }
    return new JsonBody(object);
  }

  /**
   * @param object a JSON object, e.g. an element of a body's array
   * @return it, with the typed getters
   */
  public static JsonBody wrap(JsonObject object) {
    return new JsonBody(object);
  }

  /**
   * Parses a body that is either JSON or nothing.
   *
   * @param buffer body, may be {@code null}
   * @return the decoded JSON value
   * @throws ApiException 400 if empty or not JSON
   */
  public static Object parse(Buffer buffer) {
    if (buffer == null || buffer.length() == 0) {
      throw ApiException.badRequest("missing request body");
    }
    try {
      return Json.decodeValue(buffer);
    } catch (DecodeException e) {
      throw ApiException.badRequest("request body is not valid JSON");
    }
  }

  /**
   * @return the underlying object
   */
  public JsonObject json() {
    return json;
  }

  /**
   * @param name field name
   * @param maxLength longest accepted value
   * @return the non-blank string value
   * @throws ApiException 422 if absent, not a string, blank or too long
   */
  public String requiredString(String name, int maxLength) {
    String value = optionalString(name, maxLength);
    if (value == null) {
      throw ApiException.unprocessable("missing field: " + name);
    }
    return value;
  }

  /**
   * @param name field name
   * @param maxLength longest accepted value
   * @return the string value, or {@code null} if absent or JSON null
   * @throws ApiException 422 if not a string, blank or too long
   */
  public String optionalString(String name, int maxLength) {
    Object value = json.getValue(name);
    if (value == null) {
      return null;
    }
    if (!(value instanceof String s) || s.isBlank()) {
      throw ApiException.unprocessable("field " + name + " must be a non-blank string");
    }
    if (s.length() > maxLength) {
      throw ApiException.unprocessable(
          "field " + name + " is longer than " + maxLength + " characters");
    }
    return s;
  }

  /**
   * @param name field name
   * @return the boolean value, or {@code null} if absent
   * @throws ApiException 422 if not a boolean
   */
  public Boolean optionalBoolean(String name) {
    Object value = json.getValue(name);
    if (value == null || value instanceof Boolean) {
      return (Boolean) value;
    }
    throw ApiException.unprocessable("field " + name + " must be true or false");
  }

  /**
   * @param name field name
   * @return the list of names, or {@code null} if absent
   * @throws ApiException 422 if not an array of non-blank strings of at most {@link
   *     #MAX_NAME_LENGTH} characters, or longer than {@link #MAX_LIST_SIZE}
   */
  public List<String> optionalNames(String name) {
    Object value = json.getValue(name);
    if (value == null) {
      return null;
    }
    if (!(value instanceof JsonArray array)) {
      throw ApiException.unprocessable("field " + name + " must be an array of strings");
    }
    return names(array, name);
  }

  /**
   * Checks a JSON array of names.
   *
   * @param array the array
   * @param what what the array is, for messages
   * @return the names in order
   * @throws ApiException 422 on a non-string, blank or over-long entry, or too many entries
   */
  public static List<String> names(JsonArray array, String what) {
    if (array.size() > MAX_LIST_SIZE) {
      throw ApiException.unprocessable(what + " has more than " + MAX_LIST_SIZE + " entries");
    }
    List<String> names = new ArrayList<>(array.size());
    for (Object item : array) {
      if (!(item instanceof String s) || s.isBlank() || s.length() > MAX_NAME_LENGTH) {
        throw ApiException.unprocessable(
            what
                + " must contain only non-blank strings of at most "
                + MAX_NAME_LENGTH
                + " characters");
      }
      names.add(s);
    }
    return names;
  }
}
