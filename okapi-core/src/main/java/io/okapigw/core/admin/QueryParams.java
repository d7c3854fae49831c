package io.okapigw.core.admin;

import io.okapigw.core.http.HttpError;
import io.vertx.core.MultiMap;

/** Okapi's query parameter rules: a bad value is a 400 naming the parameter. */
final class QueryParams {

  private QueryParams() {}

  /**
   * @return {@code true} or {@code false} as given, {@code defaultValue} when absent
   * @throws HttpError 400 for any other value
   */
  static boolean bool(MultiMap params, String name, boolean defaultValue) {
    String value = params.get(name);
    if (value == null) {
      return defaultValue;
    }
    if ("true".equals(value) || "false".equals(value)) {
      return Boolean.parseBoolean(value);
    }
    throw HttpError.badRequest("parameter " + name + " must be true or false; was '" + value + "'");
  }

  /**
   * @return the number, or null when absent
   * @throws HttpError 400 if it is not an integer
   */
  static Integer integer(MultiMap params, String name) {
    String value = params.get(name);
    if (value == null) {
      return null;
    }
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw HttpError.badRequest("parameter " + name + " must be an integer; was '" + value + "'");
    }
  }
}
