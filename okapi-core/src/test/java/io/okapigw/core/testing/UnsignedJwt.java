package io.okapigw.core.testing;

import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** JWT-shaped tokens with a fake signature: the gateway reads their claims, never verifies. */
public final class UnsignedJwt {

  private UnsignedJwt() {}

  /**
   * @return {@code {"alg":"HS256"}.<claims>.sig}, base64url-encoded
   */
  public static String of(JsonObject claims) {
    Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
    return b64.encodeToString("{\"alg\":\"HS256\"}".getBytes(StandardCharsets.UTF_8))
        + "."
        + b64.encodeToString(claims.encode().getBytes(StandardCharsets.UTF_8))
        + ".sig";
  }

  /**
   * @return a token of {@code user} for {@code tenant}
   */
  public static String of(String tenant, String user) {
    return of(new JsonObject().put("sub", user).put("tenant", tenant));
  }
}
