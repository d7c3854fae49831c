package io.okapigw.folio.module;

import io.vertx.core.http.HttpMethod;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A kind of call one module makes to another through the gateway: the interface it needs and the
 * handler (method and path pattern, exactly as in the provider's descriptor) it reaches.
 *
 * @param interfaceId the required interface, named in error messages
 * @param method the HTTP method
 * @param pathPattern the provider's path pattern, e.g. {@code /holdings-storage/holdings/{id}}
 */
public record Call(String interfaceId, HttpMethod method, String pathPattern) {

  private static final Pattern PARAM = Pattern.compile("\\{[^}/]+}");

  /**
   * @return a GET call
   */
  public static Call get(String interfaceId, String pathPattern) {
    return new Call(interfaceId, HttpMethod.GET, pathPattern);
  }

  /**
   * @return a POST call
   */
  public static Call post(String interfaceId, String pathPattern) {
    return new Call(interfaceId, HttpMethod.POST, pathPattern);
  }

  /**
   * @return a PUT call
   */
  public static Call put(String interfaceId, String pathPattern) {
    return new Call(interfaceId, HttpMethod.PUT, pathPattern);
  }

  /**
   * @return a DELETE call
   */
  public static Call delete(String interfaceId, String pathPattern) {
    return new Call(interfaceId, HttpMethod.DELETE, pathPattern);
  }

  /**
   * @return the key the provider counts it under: {@code "GET /users/{id}"}
   */
  public String key() {
    return Routes.key(method.name(), pathPattern);
  }

  /**
   * @param values one value per {@code {param}} of the pattern, in order; percent-encoded here
   * @return the path
   * @throws IllegalArgumentException if the number of values is wrong
   */
  public String path(String... values) {
    Matcher m = PARAM.matcher(pathPattern);
    StringBuilder path = new StringBuilder();
    int i = 0;
    while (m.find()) {
      if (i >= values.length) {
        throw new IllegalArgumentException(pathPattern + " needs more than " + i + " values");
      }
      m.appendReplacement(path, Matcher.quoteReplacement(encode(values[i++])));
    }
    if (i != values.length) {
      throw new IllegalArgumentException(
          pathPattern + " takes " + i + " values, not " + values.length);
    }
    return m.appendTail(path).toString();
  }

  /**
   * @param cql a CQL query
   * @param limit the page size
   * @return the pattern (which has no parameters) with {@code ?query=...&limit=...}
   */
  public String query(String cql, int limit) {
    return path() + "?query=" + encode(cql) + "&limit=" + limit;
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
