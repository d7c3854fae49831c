package io.okapigw.authtoken.store.json;

import static io.okapigw.authtoken.TestModule.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.okapigw.authtoken.store.AuthStore;
import io.okapigw.authtoken.store.AuthStoreContractTest;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store contract on the JSON store, and its file handling. */
class JsonAuthStoreTest extends AuthStoreContractTest {
  @TempDir Path dir;

  @Override
  protected Future<AuthStore> openStore(Vertx vertx) {
    return JsonAuthStore.open(vertx, dir);
  }

  @Test
  void write_replacesFileAtomically_noTempFileLeftAndValidJson() throws Exception {
    await(store.insertUser(user("u1", "alice")));
    assertThat(dir.resolve(StoreFile.TEMP)).doesNotExist();
    JsonObject content = new JsonObject(Files.readString(dir.resolve(StoreFile.DATA)));
    assertThat(content.getString("format")).isEqualTo(JsonStoreCodec.FORMAT);
    assertThat(content.getJsonObject("tenants").getJsonObject(tenant).getJsonArray("users"))
        .hasSize(1);
  }

  @Test
  void open_directoryInUse_failsNamingIt() {
    assertThatThrownBy(() -> await(JsonAuthStore.open(vertx, dir)))
        .hasMessageContaining("--store")
        .hasMessageContaining("in use");
  }

  @Test
  void open_tempFileLeftByACrashBeforeRename_isIgnored() throws Exception {
    await(store.insertUser(user("u1", "alice")));
    await(store.close());
    Files.writeString(dir.resolve(StoreFile.TEMP), "{\"half-writ");
    store = await(openStore(vertx));
    assertThat(await(store.findUser(tenant, "u1"))).isEqualTo(user("u1", "alice"));
  }

  @Test
  void open_corruptFile_failsAndLeavesItAlone() throws Exception {
    await(store.close());
    Files.writeString(dir.resolve(StoreFile.DATA), "not json");
    assertThatThrownBy(() -> await(openStore(vertx))).hasMessageContaining("cannot read");
    assertThat(Files.readString(dir.resolve(StoreFile.DATA))).isEqualTo("not json");
    Files.delete(dir.resolve(StoreFile.DATA));
    store = await(openStore(vertx));
  }

  @Test
  void failedWrite_changesNothingOnDisk() throws Exception {
    await(store.insertUser(user("u1", "alice")));
    String before = Files.readString(dir.resolve(StoreFile.DATA));
    assertThatThrownBy(() -> await(store.insertUser(user("u2", "alice"))));
    assertThat(Files.readString(dir.resolve(StoreFile.DATA))).isEqualTo(before);
  }

  @Test
  void reopen_unknownFormat_failsNamingTheFile() throws Exception {
    await(store.close());
    Files.writeString(dir.resolve(StoreFile.DATA), "{\"format\":\"other\",\"version\":9}");
    assertThatThrownBy(() -> await(openStore(vertx))).hasMessageContaining(StoreFile.DATA);
    Path data = dir.resolve(StoreFile.DATA);
    Files.delete(data);
    store = await(openStore(vertx));
  }
}
