package io.okapigw.core.eureka;

import io.okapigw.core.auth.AuthRefusal;
import io.okapigw.core.http.HttpError;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * Answers of an Eureka tenant's request that the gateway writes itself, in the sidecar's error body
 * ({@code ErrorHandler}: {@code {"errors": [{"type", "code", "message"}], "total_records": 1}},
 * {@code application/json}), so that clients written for Eureka read them; the message says what is
 * wrong where the sidecar says only "Unauthorized" or "Access Denied".
 */
final class EurekaErrors {

  /** The sidecar's {@code Retry-After} on its 503 ({@code EGRESS_UNAUTH_RETRY_DELAY}), seconds. */
  static final long RETRY_AFTER_SECONDS = 1;

  private static final String JSON = "application/json";

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

  /**
   * Keycloak's 4xx other than 401 and 403 (a handler whose method Keycloak has no scope for: 400
   * {@code invalid_resource}), its status passed on as the sidecar's {@code
   * KeycloakUnhandledAuthorizationException} passes it.
   */
  static AuthRefusal keycloakRefused(int status, String message) {
    return refusal(status, "KeycloakUnhandledAuthorizationException", message);
  }

  /**
   * Keycloak (or what the decision needs of it) cannot be reached or fails: 503 with {@code
   * Retry-After}, where the sidecar answers 403 "Access Denied" (its {@code
   * handleAuthorizationError}): the request may be granted once Keycloak answers again.
   */
  static HttpError unavailable(String message) {
    return new HttpError(
        503, body("ServiceUnavailableException", message), JSON, RETRY_AFTER_SECONDS);
  }

  /**
   * @return the failure of an Eureka tenant's decision in the sidecar's body: refusals as they are,
   *     the gateway's own 4xx as the sidecar's, 5xx (Keycloak unreachable, failing, timing out) as
   *     {@link #unavailable}
   */
  static <T> Future<T> sidecarShaped(Throwable e) {
    if (e instanceof AuthRefusal || !(e instanceof HttpError error)) {
      return Future.failedFuture(e);
    }
    if (error.status() >= 500) {
      String message = error.getMessage();
      return Future.failedFuture(
          unavailable(
              message.startsWith("Keycloak") ? message : "Keycloak cannot decide now: " + message));
    }
    if (JSON.equals(error.contentType())) {
      return Future.failedFuture(e);
    }
    String type =
        switch (error.status()) {
          case 400 -> "BadRequestException";
          case 401 -> "UnauthorizedException";
          case 403 -> "ForbiddenException";
          case 404 -> "NotFoundException";
          default -> "WebApplicationException";
        };
    return Future.failedFuture(refusal(error.status(), type, error.getMessage()));
  }

  static AuthRefusal refusal(int status, String type, String message) {
    return new AuthRefusal(status, body(type, message), JSON);
  }

  /** The sidecar's {@code ErrorCode} for each exception it answers with. */
  private static String body(String type, String message) {
    String code =
        switch (type) {
          case "UnauthorizedException",
              "ForbiddenException",
              "KeycloakUnhandledAuthorizationException",
              "ServiceUnavailableException" ->
              "authorization_error";
          case "NotFoundException" -> "route_not_found_error";
          default -> "service_error";
        };
    JsonObject error = new JsonObject().put("type", type).put("code", code).put("message", message);
    return new JsonObject()
        .put("errors", new JsonArray().add(error))
        .put("total_records", 1)
        .encode();
  }
}
