package io.okapigw.core.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.core.registry.DeploymentDescriptor;
import io.okapigw.core.registry.ModuleDescriptor;
import io.okapigw.core.registry.RegistryStore;
import io.okapigw.core.registry.TenantDescriptor;
import io.okapigw.core.timer.TimerStore;
import io.okapigw.testsupport.TestPostgres;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A database an earlier version of this gateway wrote (its own {@code okapigw_*} tables) still
 * starts: the registry and the changed timers move into Okapi's tables at the first start, the old
 * tables are kept renamed, and nothing is lost when Okapi's tables already held a row.
 */
class LayoutMigrationTest {

  /** The earlier version's tables, as it created them. */
  private static final String OLD_SCHEMA =
      """
      CREATE TABLE okapigw_modules (id text PRIMARY KEY, descriptor text NOT NULL);
      CREATE TABLE okapigw_tenants (id text PRIMARY KEY, descriptor text NOT NULL);
      CREATE TABLE okapigw_enabled (tenant text PRIMARY KEY, modules text NOT NULL);
      CREATE TABLE okapigw_deployments (srvc_id text, inst_id text,
        url text NOT NULL, PRIMARY KEY (srvc_id, inst_id));
      CREATE TABLE okapigw_install_jobs (tenant text, id text, job text NOT NULL,
        PRIMARY KEY (tenant, id));
      CREATE TABLE okapigw_timers (tenant text, id text, routing_entry text NOT NULL,
        PRIMARY KEY (tenant, id));
      """;

  private static final JsonObject MOD_A =
      new JsonObject().put("id", "mod-a-1.0.0").put("name", "A").put("unknownToOkapi", 1);
  private static final JsonObject TIMING =
      new JsonObject()
          .put("methods", new JsonArray().add("POST"))
          .put("pathPattern", "/a/tick")
          .put("unit", "minute")
          .put("delay", "5");

  private Vertx vertx;
  private String db;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    db = TestPostgres.get().createDatabase();
    try (RawDatabase old = RawDatabase.connect(vertx, db)) {
      old.sql(OLD_SCHEMA);
      old.sql("INSERT INTO okapigw_modules VALUES ($1, $2)", "mod-a-1.0.0", MOD_A.encode());
      old.sql(
          "INSERT INTO okapigw_modules VALUES ($1, $2)",
          "mod-b-1.0.0",
          new JsonObject().put("id", "mod-b-1.0.0").encode());
      old.sql(
          "INSERT INTO okapigw_tenants VALUES ($1, $2)",
          "diku",
          new JsonObject().put("id", "diku").put("name", "Diku").encode());
      old.sql(
          "INSERT INTO okapigw_enabled VALUES ($1, $2)",
          "diku",
          new JsonArray().add("mod-b-1.0.0").add("mod-a-1.0.0").encode());
      old.sql("INSERT INTO okapigw_deployments VALUES ('mod-a-1.0.0', 'a-1', 'http://a:1')");
      old.sql("INSERT INTO okapigw_deployments VALUES ('mod-b-1.0.0', 'b-1', 'http://b:1')");
      old.sql("INSERT INTO okapigw_install_jobs VALUES ('diku', 'j1', '{\"id\":\"j1\"}')");
      old.sql("INSERT INTO okapigw_timers VALUES ('diku', 'mod-a_0', $1)", TIMING.encode());
    }
  }

  @AfterEach
  void stop() {
    vertx.close().await();
  }

  @Test
  void earlierLayout_movedIntoOkapisTables_servedAndKeptRenamed() {
    Storage storage = Storage.open(vertx, StorageOptions.of(db)).await();
    try {
      RegistryStore store = storage.registry();
      assertThat(store.modules().await())
          .extracting(ModuleDescriptor::id)
          .containsExactly("mod-a-1.0.0", "mod-b-1.0.0");
      assertThat(store.module("mod-a-1.0.0").await().orElseThrow().toJson()).isEqualTo(MOD_A);
      assertThat(store.tenants().await())
          .extracting(t -> t.toJson().getString("name"))
          .containsExactly("Diku");
      assertThat(store.enabledModules("diku").await())
          .containsExactly("mod-b-1.0.0", "mod-a-1.0.0");
      assertThat(store.deployments().await())
          .containsExactly(
              new DeploymentDescriptor("mod-a-1.0.0", "a-1", "http://a:1"),
              new DeploymentDescriptor("mod-b-1.0.0", "b-1", "http://b:1"));
      assertThat(store.installJob("diku", "j1").await()).isPresent();
      assertThat(storage.timers().all().await())
          .containsExactly(new TimerStore.Patch("diku", "mod-a_0", TIMING));
    } finally {
      storage.close().await();
    }
    try (RawDatabase raw = RawDatabase.connect(vertx, db)) {
      for (String table : List.of("modules", "tenants", "enabled", "deployments", "timers")) {
        assertThat(raw.exists("okapigw_" + table)).as(table).isFalse();
        assertThat(raw.exists("okapigw_v1_" + table)).as(table).isTrue();
      }
      assertThat(raw.json("SELECT tenantjson->'enabled' FROM tenants"))
          .containsExactly(new JsonObject().put("mod-a-1.0.0", true).put("mod-b-1.0.0", true));
    }
    Storage again = Storage.open(vertx, StorageOptions.of(db)).await();
    try {
      assertThat(again.registry().modules().await()).hasSize(2);
    } finally {
      again.close().await();
    }
  }

  @Test
  void rowOkapisTablesAlreadyHold_staysAsItWas_earlierRowKept() {
    try (RawDatabase okapi = RawDatabase.connect(vertx, db)) {
      okapi.sql(OkapiSchema.MODULES.create());
      okapi.sql(
          "INSERT INTO modules VALUES ($1::jsonb)",
          new JsonObject().put("id", "mod-a-1.0.0").put("name", "Okapi's"));
    }
    Storage storage = Storage.open(vertx, StorageOptions.of(db)).await();
    try {
      assertThat(storage.registry().module("mod-a-1.0.0").await().orElseThrow().toJson())
          .isEqualTo(new JsonObject().put("id", "mod-a-1.0.0").put("name", "Okapi's"));
      assertThat(storage.registry().module("mod-b-1.0.0").await()).isPresent();
      assertThat(storage.registry().tenant("diku").await()).map(TenantDescriptor::id).isPresent();
    } finally {
      storage.close().await();
    }
    try (RawDatabase raw = RawDatabase.connect(vertx, db)) {
      assertThat(raw.sql("SELECT descriptor FROM okapigw_v1_modules WHERE id = 'mod-a-1.0.0'"))
          .extracting(r -> new JsonObject(r.getString(0)))
          .containsExactly(MOD_A);
    }
  }
}
