package io.okapigw.authtoken.token;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicReference;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * The HS256 signing key, kept in a file (base64 of at least 32 random bytes, mode 600) so that
 * tokens survive restarts and every instance sharing the file shares the key. Created with a fresh
 * random 256-bit key if missing; {@link #rotate()} replaces it; {@link #reload()} picks up a
 * rotation made by another instance. File work runs on a worker thread.
 */
public final class SigningKey {
  /** Fewest key bytes accepted (HS256 needs 256 bits). */
  public static final int MIN_BYTES = 32;

  private final Vertx vertx;
  private final Path file;
  private final SecureRandom random = new SecureRandom();
  private final AtomicReference<SecretKey> current = new AtomicReference<>();

  private SigningKey(Vertx vertx, Path file) {
    this.vertx = vertx;
    this.file = file;
  }

  /**
   * Loads the key file, creating it with a random key if missing.
   *
   * @param vertx Vert.x
   * @param file the key file
   * @return the key; fails naming {@code --signing-key-file} if unreadable or too short
   */
  public static Future<SigningKey> load(Vertx vertx, Path file) {
    SigningKey key = new SigningKey(vertx, file);
    return vertx.executeBlocking(
        () -> {
          key.current.set(key.readOrCreate());
          return key;
        },
        false);
  }

  /**
   * @return the key that signs and verifies now
   */
  public SecretKey current() {
    return current.get();
  }

  /**
   * @return done: a new random key is in the file and in use; tokens signed before are invalid
   */
  public Future<Void> rotate() {
    return vertx.executeBlocking(
        () -> {
          byte[] bytes = randomKey();
          Path temp = Files.createTempFile(file.toAbsolutePath().getParent(), ".signing", ".tmp");
          writePrivate(temp, bytes);
          Files.move(
              temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
          current.set(secretKey(bytes));
          return null;
        },
        false);
  }

  /**
   * @return whether the file now holds another key than the one in use (which it then uses)
   */
  public Future<Boolean> reload() {
    return vertx.executeBlocking(
        () -> {
          SecretKey loaded = secretKey(decode(Files.readString(file, StandardCharsets.US_ASCII)));
          boolean changed = !Arrays.equals(loaded.getEncoded(), current.get().getEncoded());
          if (changed) {
            current.set(loaded);
          }
          return changed;
        },
        false);
  }

  private SecretKey readOrCreate() throws IOException {
    if (!Files.exists(file)) {
      create();
    }
    return secretKey(decode(Files.readString(file, StandardCharsets.US_ASCII)));
  }

  /** Creates the file atomically; if another instance won the race, its key is used. */
  private void create() throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    Files.createDirectories(dir);
    Path temp = Files.createTempFile(dir, ".signing", ".tmp");
    try {
      writePrivate(temp, randomKey());
      Files.createLink(file, temp);
    } catch (FileAlreadyExistsException e) {
      // another instance created it first
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  private byte[] randomKey() {
    byte[] bytes = new byte[MIN_BYTES];
    random.nextBytes(bytes);
    return bytes;
  }

  private static void writePrivate(Path path, byte[] key) throws IOException {
    try {
      Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rw-------"));
    } catch (UnsupportedOperationException e) {
      // not a POSIX file system
    }
    Files.writeString(
        path, Base64.getEncoder().encodeToString(key) + "\n", StandardCharsets.US_ASCII);
  }

  private byte[] decode(String content) {
    byte[] bytes;
    try {
      bytes = Base64.getDecoder().decode(content.trim());
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException("--signing-key-file " + file + " is not base64");
    }
    if (bytes.length < MIN_BYTES) {
      throw new IllegalStateException("--signing-key-file " + file + " holds fewer than 256 bits");
    }
    return bytes;
  }

  private static SecretKey secretKey(byte[] bytes) {
    return new SecretKeySpec(bytes, "HmacSHA256");
  }
}
