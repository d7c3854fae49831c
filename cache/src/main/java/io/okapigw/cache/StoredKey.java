package io.okapigw.cache;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * An {@link AuthCacheKey} as the cache holds it: the token not as itself but as its SHA-256 digest
 * (four longs), so that a decision costs a digest, not a copy of a token of several hundred
 * characters; the strings many entries share held once ({@link Names}).
 *
 * <p>A different token never finds another token's entry: two tokens share a key only if their
 * SHA-256 digests are equal, which no one knows how to bring about (collision resistance,
 * 2<sup>128</sup> work; a second token matching a given one's digest, 2<sup>256</sup>). The empty
 * token (a request without one) has the digest 0.
 */
record StoredKey(
    String tenant,
    String method,
    String pathPattern,
    String userId,
    String session,
    long token0,
    long token1,
    long token2,
    long token3) {

  private static final ThreadLocal<MessageDigest> SHA256 =
      ThreadLocal.withInitial(StoredKey::sha256);

  static StoredKey of(AuthCacheKey key, Names names) {
    long[] digest = digest(key.token());
    return new StoredKey(
        names.canonical(key.tenant()),
        names.canonical(key.method()),
        names.canonical(key.pathPattern()),
        key.userId(),
        key.session(),
        digest[0],
        digest[1],
        digest[2],
        digest[3]);
  }

  /**
   * @return whether the key's token has this digest ({@link #digest})
   */
  boolean hasToken(long[] digest) {
    return token0 == digest[0] && token1 == digest[1] && token2 == digest[2] && token3 == digest[3];
  }

  /**
   * @return whether the key has a token
   */
  boolean hasToken() {
    return (token0 | token1 | token2 | token3) != 0;
  }

  /**
   * @return the SHA-256 digest of the token as four longs; zeros for the empty token
   */
  static long[] digest(String token) {
    if (token.isEmpty()) {
      return new long[4];
    }
    ByteBuffer hash = ByteBuffer.wrap(SHA256.get().digest(token.getBytes(StandardCharsets.UTF_8)));
    return new long[] {hash.getLong(), hash.getLong(), hash.getLong(), hash.getLong()};
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JRE has SHA-256", e);
    }
  }

  /** Never the token, which it does not hold; nor its digest. */
  @Override
  public String toString() {
    return "StoredKey[tenant="
        + tenant
        + ", method="
        + method
        + ", pathPattern="
        + pathPattern
        + ", userId="
        + userId
        + (session.isEmpty() ? "" : ", session=" + session)
        + "]";
  }
}
