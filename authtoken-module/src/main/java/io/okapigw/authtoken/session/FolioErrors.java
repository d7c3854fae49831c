package io.okapigw.authtoken.session;

import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/**
 * The error answers of FOLIO's mod-login that Stripes reads: {@code {"errors": [{"message", "type":
 * "error", "code", "parameters": []}]}} with the status and code mod-login gives.
 *
 * @param status HTTP status
 * @param message the message
 * @param code mod-login's error code, which Stripes translates
 */
record FolioErrors(int status, String message, String code) {

  /** A failed login, for an unknown user, a wrong password or an inactive user alike. */
  static final FolioErrors LOGIN_FAILED =
      new FolioErrors(
          422,
          "Wrong username or wrong password or account blocked",
          "wrong.username.or.wrong.password.or.account.blocked");

  /** A refresh without a readable refresh-token cookie. */
  static final FolioErrors NO_REFRESH_COOKIE =
      new FolioErrors(400, "Bad request", "token.parse.failure");

  /** A refresh token that is unknown, expired or used. */
  static final FolioErrors REFRESH_REFUSED =
      new FolioErrors(
          422,
          "Authorization server unable to process token refresh request",
          "token.refresh.unprocessable");

  /** A logout whose refresh token or access token is refused. */
  static final FolioErrors LOGOUT_REFUSED =
      new FolioErrors(
          422,
          "Authorization server unable to process token logout request",
          "token.logout.unprocessable");

  /** Writes the answer. */
  void respond(RoutingContext ctx) {
    JsonObject error =
        new JsonObject()
            .put("message", message)
            .put("type", "error")
            .put("code", code)
            .put("parameters", new JsonArray());
    ctx.response()
        .setStatusCode(status)
        .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
        .end(new JsonObject().put("errors", new JsonArray().add(error)).encode());
  }
}
