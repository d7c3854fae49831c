package io.okapigw.core.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.core.registry.ModuleDescriptor;
import io.okapigw.core.registry.RegistryStore;
import io.okapigw.testsupport.TestPostgres;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.SqlClient;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Okapi's {@code initdatabase} and {@code purgedatabase} as the storage runs them ({@link
 * Storage#init}, {@link Storage#purge}) on a real PostgreSQL.
 */
class DatabaseCommandsTest {

  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() {
    vertx.close().await();
  }

  private static ModuleDescriptor module(String id) {
    return ModuleDescriptor.fromJson(new JsonObject().put("id", id));
  }

  private List<String> tables(String db) {
    SqlClient sql =
        PgBuilder.client().connectingTo(PgConnectOptions.fromUri(db)).using(vertx).build();
    List<String> names = new ArrayList<>();
    sql.query(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
                + " ORDER BY table_name")
        .execute()
        .await()
        .forEach(row -> names.add(row.getString(0)));
    sql.close().await();
    return names;
  }

  @Test
  void init_dropsTheDataAndLeavesTheTablesEmpty() {
    String db = TestPostgres.get().createDatabase();
    StorageOptions storage = StorageOptions.of(db);
    RegistryStore store = Storage.open(vertx, storage).await();
    store.insertModule(module("mod-a-1.0.0")).await();

    Storage.init(vertx, storage).await();

    assertThat(tables(db)).contains("okapigw_modules", "okapigw_tenants");
    assertThat(Storage.open(vertx, storage).await().modules().await()).isEmpty();
  }

  @Test
  void purge_dropsTheTables() {
    String db = TestPostgres.get().createDatabase();
    StorageOptions storage = StorageOptions.of(db);
    Storage.open(vertx, storage).await().insertModule(module("mod-a-1.0.0")).await();
    assertThat(tables(db)).contains("okapigw_modules");

    Storage.purge(vertx, storage).await();

    assertThat(tables(db)).noneMatch(t -> t.startsWith("okapigw_"));
  }

  @Test
  void initAndPurge_inMemory_nothingToDo() {
    assertThat(Storage.init(vertx, StorageOptions.inMemory()).succeeded()).isTrue();
    assertThat(Storage.purge(vertx, StorageOptions.inMemory()).succeeded()).isTrue();
  }
}
