package io.okapigw.folio.module;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.function.Function;

/** An incoming request to a simulated module, its body read and its path parameters matched. */
public final class ModuleRequest {

  private final HttpServerRequest request;
  private final Buffer body;
  private final Map<String, String> pathParams;
  private final Function<OkapiHeaders, OkapiClient> clients;

  ModuleRequest(
      HttpServerRequest request,
      Buffer body,
      Map<String, String> pathParams,
      Function<OkapiHeaders, OkapiClient> clients) {
    this.request = request;
    this.body = body;
    this.pathParams = pathParams;
    this.clients = clients;
  }

  /**
   * @return the value of a {@code {name}} of the path pattern
   */
  public String pathParam(String name) {
    String value = pathParams.get(name);
    if (value == null) {
      throw new IllegalStateException("no path parameter " + name + " in " + pathParams);
    }
    return value;
  }

  /**
   * @return a query parameter, or null
   */
  public String query(String name) {
    return request.getParam(name);
  }

  /**
   * @return an integer query parameter, or {@code otherwise} if absent
   * @throws ModuleError 400 if not an integer within min..max
   */
  public int queryInt(String name, int otherwise, int min, int max) {
    String text = query(name);
    if (text == null) {
      return otherwise;
    }
    try {
      int value = Integer.parseInt(text.trim());
      if (value >= min && value <= max) {
        return value;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw ModuleError.badRequest(
        "query parameter "
            + name
            + " must be an integer from "
            + min
            + " to "
            + max
            + ", was '"
            + text
            + "'");
  }

  /**
   * @return the body as a JSON object
   * @throws ModuleError 400 if the body is missing, malformed or not an object
   */
  public JsonObject json() {
    if (body.length() == 0) {
      throw ModuleError.badRequest("missing JSON body");
    }
    Object value;
    try {
      value = body.toJsonValue();
    } catch (DecodeException e) {
      throw ModuleError.badRequest("malformed JSON body: " + firstLine(e.getMessage()));
    }
    if (!(value instanceof JsonObject object)) {
      throw ModuleError.badRequest("the JSON body must be an object");
    }
    return object;
  }

  /**
   * @return a request header, or null
   */
  public String header(String name) {
    return request.getHeader(name);
  }

  /**
   * @return a client for calls to other modules with this request's Okapi headers
   * @throws ModuleError 400 if X-Okapi-Url is missing
   */
  public OkapiClient okapi() {
    return clients.apply(OkapiHeaders.from(request.headers()));
  }

  private static String firstLine(String message) {
    String text = message == null ? "" : message;
    int end = text.indexOf('\n');
    return end < 0 ? text : text.substring(0, end);
  }
}
