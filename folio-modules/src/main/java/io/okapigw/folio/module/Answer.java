package io.okapigw.folio.module;

import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * What another module (or the gateway on its behalf) answered to a {@link Call}.
 *
 * @param call the call
 * @param path the path called
 * @param status HTTP status
 * @param body the body, possibly empty
 * @param headers the answer's headers
 */
public record Answer(Call call, String path, int status, Buffer body, MultiMap headers) {

  /** An answer whose headers do not matter. */
  public Answer(Call call, String path, int status, Buffer body) {
    this(call, path, status, body, MultiMap.caseInsensitiveMultiMap());
  }

  private static final int MAX_QUOTED = 300;

  /**
   * @return whether the status is 2xx
   */
  public boolean ok() {
    return status / 100 == 2;
  }

  /**
   * @return the body as a JSON object, empty for an empty body
   * @throws ModuleError 502 if the body is not a JSON object
   */
  public JsonObject json() {
    if (body.length() == 0) {
      return new JsonObject();
    }
    try {
      return new JsonObject(body);
    } catch (DecodeException | ClassCastException e) {
      throw ModuleError.badGateway(
          describe()
              + " answered "
              + status
              + " with a body that is "
              + "not a JSON object: "
              + quoted());
    }
  }

  /**
   * @return the error this answer is when it was not expected: 502 naming call and answer
   */
  public ModuleError unexpected() {
    return ModuleError.badGateway(describe() + " answered " + status + ": " + message());
  }

  /**
   * @return {@code GET /path (interface x)}
   */
  public String describe() {
    return call.method() + " " + path + " (interface " + call.interfaceId() + ")";
  }

  /**
   * @return the first FOLIO error message of the body, or the body text, shortened
   */
  public String message() {
    try {
      JsonArray errors = new JsonObject(body).getJsonArray("errors");
      if (errors != null && !errors.isEmpty()) {
        return errors.getJsonObject(0).getString("message", quoted());
      }
    } catch (DecodeException | ClassCastException e) {
      // not FOLIO's error shape: quote the text
    }
    return quoted();
  }

  private String quoted() {
    String text = body.toString().strip();
    return text.length() > MAX_QUOTED ? text.substring(0, MAX_QUOTED) + "..." : text;
  }
}
