package io.okapigw.authtoken.token;

import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** Hand-made JWTs for attacks the module must refuse, and a decoder for checking claims. */
public final class ForgedTokens {
  private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

  private ForgedTokens() {}

  /**
   * @param claims claims @return a JWT with {@code alg: none} and no signature
   */
  public static String unsigned(JsonObject claims) {
    return part(new JsonObject().put("alg", "none")) + "." + part(claims) + ".";
  }

  /**
   * @param alg the {@code alg} header to claim
   * @param macAlgorithm the JCA MAC to really sign with (HmacSHA256, HmacSHA512)
   * @param key key bytes
   * @param claims claims
   * @return the signed JWT
   */
  public static String hmac(String alg, String macAlgorithm, byte[] key, JsonObject claims) {
    String input = part(new JsonObject().put("alg", alg)) + "." + part(claims);
    try {
      Mac mac = Mac.getInstance(macAlgorithm);
      mac.init(new SecretKeySpec(key, macAlgorithm));
      return input
          + "."
          + B64.encodeToString(mac.doFinal(input.getBytes(StandardCharsets.US_ASCII)));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * @param keyFile a signing key file @return its key bytes
   */
  public static byte[] key(Path keyFile) throws java.io.IOException {
    return Base64.getDecoder().decode(Files.readString(keyFile).trim());
  }

  /**
   * @param token a JWT @return its payload
   */
  public static JsonObject payload(String token) {
    return new JsonObject(
        new String(Base64.getUrlDecoder().decode(token.split("\\.")[1]), StandardCharsets.UTF_8));
  }

  /**
   * @param token a JWT @return its header
   */
  public static JsonObject header(String token) {
    return new JsonObject(
        new String(Base64.getUrlDecoder().decode(token.split("\\.")[0]), StandardCharsets.UTF_8));
  }

  private static String part(JsonObject json) {
    return B64.encodeToString(json.encode().getBytes(StandardCharsets.UTF_8));
  }
}
