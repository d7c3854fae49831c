package io.okapigw.core.eureka;

import io.okapigw.core.auth.AuthRefusal;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * Refusals of an Eureka tenant's request, in the sidecar's error body ({@code {"errors": [{"type",
 * "code", "message"}], "total_records": 1}}), so that clients written for Eureka read them; the
 * message says what is wrong where the sidecar says only "Unauthorized" or "Access Denied".
 */
final class EurekaErrors {

  private EurekaErrors() {}

  /** A missing or refused token: 401, as the sidecar's {@code UnauthorizedException}. */
  static AuthRefusal unauthorized(String message) {
    return refusal(401, "UnauthorizedException", message);
  }

  /** Keycloak's denial: 403, as the sidecar's {@code ForbiddenException}. */
  static AuthRefusal forbidden(String message) {
    return refusal(403, "ForbiddenException", message);
  }

  /** A client mistake the sidecar answers 400 ({@code BadRequestException}). */
  static AuthRefusal badRequest(String message) {
    return refusal(400, "BadRequestException", message);
  }

  static AuthRefusal refusal(int status, String type, String message) {
    JsonObject error =
        new JsonObject()
            .put("type", type)
            .put("code", status == 400 ? "service_error" : "authorization_error")
            .put("message", message);
    String body =
        new JsonObject().put("errors", new JsonArray().add(error)).put("total_records", 1).encode();
    return new AuthRefusal(status, body, "application/json");
  }
}
