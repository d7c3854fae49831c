package io.okapigw.cache;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A short, non-reversible label for a token, so that log lines can tell tokens apart without
 * printing them: the first 8 hex digits of its SHA-256.
 */
final class TokenFingerprint {

  private TokenFingerprint() {}

  static String of(String token) {
    if (token == null || token.isEmpty()) {
      return "none";
    }
    try {
      byte[] hash =
          MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
      return "sha256:" + HexFormat.of().formatHex(hash, 0, 4);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JRE has SHA-256", e);
    }
  }
}
