package io.okapigw.authtoken.store.json;

import static io.okapigw.authtoken.TestModule.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.okapigw.authtoken.LogCapture;
import io.okapigw.authtoken.store.AuthStore;
import io.okapigw.authtoken.store.UserRecord;
import io.vertx.core.Vertx;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code store.json} holds password and refresh-token hashes: the file and its directory are the
 * owner's only (rw------- / rwx------), whatever the umask, and wider permissions found on an
 * existing store are tightened (with a warning), except on a directory others may write to, which
 * is refused.
 */
class JsonStorePermissionsTest {

  @TempDir Path tmp;

  private Vertx vertx;
  private AuthStore store;

  @BeforeEach
  void start() {
    assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"));
    vertx = Vertx.vertx();
  }

  @AfterEach
  void stop() {
    if (store != null) {
      await(store.close());
    }
    if (vertx != null) {
      await(vertx.close());
    }
  }

  @Test
  void open_newDirectory_directoryAndFilesOwnerOnly() throws Exception {
    Path dir = tmp.resolve("data").resolve("authtoken");
    store = await(JsonAuthStore.open(vertx, dir));
    await(store.insertUser(user()));

    assertThat(permissions(dir)).isEqualTo("rwx------");
    assertThat(permissions(dir.resolve(StoreFile.DATA))).isEqualTo("rw-------");
    assertThat(permissions(dir.resolve(StoreFile.LOCK))).isEqualTo("rw-------");
  }

  @Test
  void open_existingStoreWithWiderPermissions_tightenedAndWarned() throws Exception {
    Path dir = tmp.resolve("store");
    store = await(JsonAuthStore.open(vertx, dir));
    await(store.insertUser(user()));
    await(store.close());
    store = null;
    setPermissions(dir, "rwxr-xr-x");
    setPermissions(dir.resolve(StoreFile.DATA), "rw-r--r--");
    setPermissions(dir.resolve(StoreFile.LOCK), "rw-rw-r--");

    try (LogCapture logs = new LogCapture("io.okapigw.authtoken")) {
      store = await(JsonAuthStore.open(vertx, dir));
      assertThat(logs.text())
          .contains("WARN", dir.toString(), "rwxr-xr-x", "rwx------")
          .contains(dir.resolve(StoreFile.DATA).toString(), "rw-r--r--", "rw-------");
    }

    assertThat(permissions(dir)).isEqualTo("rwx------");
    assertThat(permissions(dir.resolve(StoreFile.DATA))).isEqualTo("rw-------");
    assertThat(permissions(dir.resolve(StoreFile.LOCK))).isEqualTo("rw-------");
    assertThat(await(store.findUser("diku", "u1"))).isEqualTo(user());
  }

  @Test
  void write_replacedFile_staysOwnerOnly() throws Exception {
    Path dir = tmp.resolve("store");
    store = await(JsonAuthStore.open(vertx, dir));
    await(store.insertUser(user()));
    await(store.setPermissions("diku", "u1", List.of("p1")));

    assertThat(permissions(dir.resolve(StoreFile.DATA))).isEqualTo("rw-------");
  }

  @Test
  void open_directoryOthersMayWrite_refusedNamingItAndLeftAlone() throws Exception {
    Path dir = Files.createDirectory(tmp.resolve("shared"));
    setPermissions(dir, "rwxrwxrwx");

    assertThatThrownBy(() -> await(JsonAuthStore.open(vertx, dir)))
        .hasMessageContaining("--store")
        .hasMessageContaining(dir.toString())
        .hasMessageContaining("rwxrwxrwx");
    assertThat(permissions(dir)).isEqualTo("rwxrwxrwx");
    assertThat(dir.resolve(StoreFile.DATA)).doesNotExist();
  }

  private static UserRecord user() {
    return new UserRecord("diku", "u1", "alice", true, "hash", List.of());
  }

  private static String permissions(Path path) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
  }

  private static void setPermissions(Path path, String permissions) throws Exception {
    Files.setPosixFilePermissions(path, PosixFilePermissions.fromString(permissions));
  }
}
