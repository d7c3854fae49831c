package io.okapigw.core.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.okapigw.testsupport.TestPostgres;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Okapi and the gateway never write one database at once: while a gateway node has it open, Okapi's
 * writes to its tables are refused with the reason; once every node has closed it, Okapi writes
 * again. {@code initdatabase} and {@code purgedatabase} refuse to run under a live node.
 */
class OneWriterTest {

  private Vertx vertx;
  private String db;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    db = TestPostgres.get().createDatabase();
  }

  @AfterEach
  void stop() {
    vertx.close().await();
  }

  private static void okapiAddsTenant(RawDatabase okapi, String id) {
    okapi.sql(
        "INSERT INTO tenants VALUES ($1::jsonb)",
        new JsonObject()
            .put("descriptor", new JsonObject().put("id", id))
            .put("enabled", new JsonObject()));
  }

  @Test
  void okapiWrites_refusedWhileAGatewayNodeRuns_allowedAfter() {
    Storage first = Storage.open(vertx, StorageOptions.of(db)).await();
    Storage second = Storage.open(vertx, StorageOptions.of(db)).await();
    try (RawDatabase okapi = RawDatabase.connect(vertx, db)) {
      assertThatThrownBy(() -> okapiAddsTenant(okapi, "diku"))
          .hasMessageContaining("okapi-gateway is serving this database")
          .hasMessageContaining("table tenants")
          .hasMessageContaining("55006");
      assertThatThrownBy(() -> okapi.sql("DELETE FROM modules"))
          .hasMessageContaining("table modules");
      first.close().await();
      assertThatThrownBy(() -> okapiAddsTenant(okapi, "diku"))
          .as("one node of two still runs")
          .hasMessageContaining("okapi-gateway is serving this database");
      second.close().await();
      okapiAddsTenant(okapi, "diku");
      assertThat(okapi.json("SELECT tenantjson FROM tenants")).hasSize(1);
    }
  }

  @Test
  void gatewayWrites_goThroughWhileItRuns() {
    Storage storage = Storage.open(vertx, StorageOptions.of(db)).await();
    try (RawDatabase ours = RawDatabase.connect(vertx, db, OkapiSchema.APPLICATION_NAME)) {
      okapiAddsTenant(ours, "diku");
      storage.registry().refresh().await(); // as after another node's announcement
      assertThat(storage.registry().tenant("diku").await()).isPresent();
    } finally {
      storage.close().await();
    }
  }

  @Test
  void initAndPurge_refusedWhileAGatewayNodeRuns_dataKept() {
    Storage storage = Storage.open(vertx, StorageOptions.of(db)).await();
    try {
      storage
          .registry()
          .insertTenant(
              io.okapigw.core.registry.TenantDescriptor.fromJson(
                  new JsonObject().put("id", "diku"), null))
          .await();
      assertThatThrownBy(() -> Storage.init(vertx, StorageOptions.of(db)).await())
          .hasMessageContaining("initdatabase: a gateway node is running on this database");
      assertThatThrownBy(() -> Storage.purge(vertx, StorageOptions.of(db)).await())
          .hasMessageContaining("purgedatabase: a gateway node is running on this database");
      assertThat(storage.registry().tenant("diku").await()).isPresent();
    } finally {
      storage.close().await();
    }
  }
}
