package io.okapigw.authtoken.login;

import io.okapigw.authtoken.token.TokenService.IssuedToken;
import io.vertx.core.json.JsonObject;
import java.time.Instant;

/**
 * The tokens of a login or refresh.
 *
 * @param access the access token and its expiry
 * @param refreshToken the single-use refresh token
 * @param refreshExpiresAt when the refresh token expires
 */
public record Session(IssuedToken access, String refreshToken, Instant refreshExpiresAt) {

  /**
   * @return {@code {"accessToken","refreshToken","expiresAt","refreshTokenExpiresAt"}}
   */
  public JsonObject toJson() {
    return new JsonObject()
        .put("accessToken", access.token())
        .put("refreshToken", refreshToken)
        .put("expiresAt", access.expiresAt().toString())
        .put("refreshTokenExpiresAt", refreshExpiresAt.toString());
  }

  @Override
  public String toString() {
    return "Session[expiresAt=" + access.expiresAt() + "]";
  }
}
