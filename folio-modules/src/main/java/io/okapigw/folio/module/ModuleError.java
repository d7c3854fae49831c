package io.okapigw.folio.module;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * The one failure type of the simulated modules: an HTTP status plus FOLIO's error shape, {@code
 * {"errors":[{"message":..., "parameters":[{"key":..., "value":...}]}]}}.
 */
public final class ModuleError extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final int status;
  private final transient JsonArray errors;

  /**
   * @param status HTTP status to answer with
   * @param errors FOLIO error objects, at least one
   */
  public ModuleError(int status, List<JsonObject> errors) {
    super(errors.isEmpty() ? "error " + status : errors.get(0).getString("message"));
    this.status = status;
    this.errors = new JsonArray(List.copyOf(errors));
  }

  /**
   * @return 422 with one error naming the offending parameter
   */
  public static ModuleError unprocessable(String message, String key, String value) {
    return new ModuleError(422, List.of(error(message, key, value)));
  }

  /**
   * @return 400 Bad Request
   */
  public static ModuleError badRequest(String message) {
    return of(400, message);
  }

  /**
   * @return 404 Not Found
   */
  public static ModuleError notFound(String message) {
    return of(404, message);
  }

  /**
   * @return 502 Bad Gateway: a module this one called failed
   */
  public static ModuleError badGateway(String message) {
    return of(502, message);
  }

  /**
   * @return 504 Gateway Timeout: a module this one called did not answer in time
   */
  public static ModuleError gatewayTimeout(String message) {
    return of(504, message);
  }

  /**
   * @return an error of any status with one message
   */
  public static ModuleError of(int status, String message) {
    return new ModuleError(status, List.of(new JsonObject().put("message", message)));
  }

  /**
   * @return one FOLIO error object with one parameter
   */
  public static JsonObject error(String message, String key, String value) {
    return new JsonObject()
        .put("message", message)
        .put(
            "parameters",
            new JsonArray().add(new JsonObject().put("key", key).put("value", value)));
  }

  /**
   * @return the HTTP status
   */
  public int status() {
    return status;
  }

  /**
   * @return copies of the FOLIO error objects
   */
  public List<JsonObject> errors() {
    return errors.stream().map(e -> ((JsonObject) e).copy()).toList();
  }

  /**
   * @return the body to answer with
   */
  public JsonObject toJson() {
    return new JsonObject().put("errors", errors.copy());
  }
}
