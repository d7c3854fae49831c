package io.okapigw.authtoken.password;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * Password hashing with PBKDF2-HMAC-SHA256 from the JDK, on a bounded worker pool of its own: a
 * login storm queues there (no timeout turns the wait into a failure) and never blocks an event
 * loop. Hashes are PHC-style strings that carry the algorithm and its parameters, {@code
 * $pbkdf2-sha256$i=600000$<salt>$<hash>} (base64 without padding, 16-byte salt, 32-byte hash), so
 * the cost can change later: {@link #needsRehash(String)}.
 */
public final class PasswordHasher {
  /** Longest password accepted. */
  public static final int MAX_PASSWORD_LENGTH = 1024;

  /** Algorithm id in the encoded hash. */
  public static final String ALGORITHM = "pbkdf2-sha256";

  private static final int SALT_BYTES = 16;
  private static final int HASH_BITS = 256;
  private static final Base64.Encoder B64 = Base64.getEncoder().withoutPadding();
  private static final Base64.Decoder B64D = Base64.getDecoder();

  private final WorkerExecutor pool;
  private final int iterations;
  private final SecureRandom random = new SecureRandom();
  private final String dummyHash;

  /**
   * @param vertx Vert.x
   * @param options iterations for new hashes, size of the hashing pool
   */
  public PasswordHasher(Vertx vertx, PasswordOptions options) {
    this.pool =
        vertx.createSharedWorkerExecutor(
            "authtoken-password-hash", options.threads(), 10, TimeUnit.MINUTES);
    this.iterations = options.iterations();
    this.dummyHash = encode(iterations, new byte[SALT_BYTES], new byte[HASH_BITS / 8]);
  }

  /**
   * @param password the password @return its encoded hash with a fresh random salt
   */
  public Future<String> hash(String password) {
    return pool.executeBlocking(
        () -> {
          byte[] salt = new byte[SALT_BYTES];
          random.nextBytes(salt);
          return encode(iterations, salt, pbkdf2(password, salt, iterations));
        },
        false);
  }

  /**
   * Checks a password. With no stored hash (unknown user) it still spends the time of a check, so
   * timing does not tell unknown users from wrong passwords.
   *
   * @param password the password given
   * @param encoded the stored hash, or {@code null}
   * @return whether it matches ({@code false} for {@code null} or an unreadable hash)
   */
  public Future<Boolean> verify(String password, String encoded) {
    return pool.executeBlocking(
        () -> {
          Parsed stored = Parsed.of(encoded);
          if (stored == null) {
            Parsed dummy = Parsed.of(dummyHash);
            pbkdf2(password, dummy.salt(), dummy.iterations());
            return false;
          }
          return MessageDigest.isEqual(
              stored.hash(), pbkdf2(password, stored.salt(), stored.iterations()));
        },
        false);
  }

  /**
   * @param encoded a stored hash @return whether it uses other parameters than new hashes would
   */
  public boolean needsRehash(String encoded) {
    Parsed stored = Parsed.of(encoded);
    return stored == null || stored.iterations() != iterations;
  }

  /**
   * @return done: the pool is closed
   */
  public Future<Void> close() {
    return pool.close();
  }

  private static byte[] pbkdf2(String password, byte[] salt, int iterations)
      throws GeneralSecurityException {
    PBEKeySpec spec = new PBEKeySpec(password.toCharArray(), salt, iterations, HASH_BITS);
    try {
      return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
    } finally {
      spec.clearPassword();
    }
  }

  private static String encode(int iterations, byte[] salt, byte[] hash) {
    return "$"
        + ALGORITHM
        + "$i="
        + iterations
        + "$"
        + B64.encodeToString(salt)
        + "$"
        + B64.encodeToString(hash);
  }

  private record Parsed(int iterations, byte[] salt, byte[] hash) {
    static Parsed of(String encoded) {
      if (encoded == null) {
        return null;
      }
      String[] parts = encoded.split("\\$");
      if (parts.length != 5 || !ALGORITHM.equals(parts[1]) || !parts[2].startsWith("i=")) {
        return null;
      }
      try {
        return new Parsed(
            Integer.parseInt(parts[2].substring(2)), B64D.decode(parts[3]), B64D.decode(parts[4]));
      } catch (IllegalArgumentException e) {
        return null;
      }
    }
  }
}
