package io.okapigw.core.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;

import io.okapigw.config.Settings;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.registry.DeploymentDescriptor;
import io.okapigw.core.testing.FakeScheduler;
import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.TestModule;
import io.okapigw.testsupport.TestPostgres;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A database Okapi 6.1.5 wrote is served as it is, and what the gateway writes there is in Okapi's
 * form (Okapi's tables, its JSON; what Okapi's beans do not know kept beside them).
 */
class OkapiDatabaseTest {

  private static final String ROWS = "/storage/okapi-6.1.5-rows.json";

  private Vertx vertx;
  private TestModule module;
  private String db;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    module =
        TestModule.start(
            vertx, router -> router.route().handler(ctx -> ctx.response().end("from the module")));
    db = TestPostgres.get().createDatabase();
  }

  @AfterEach
  void stop() {
    vertx.close().await();
  }

  private GatewayFixture gateway() {
    return new GatewayFixture(
        GatewayOptions.from(Settings.of(Map.of("port", "0", "storage", db))),
        new FakeScheduler(Instant.parse("2026-01-01T00:00:00Z")));
  }

  @Test
  void okapi615Database_servedWithoutAManualStep() {
    try (RawDatabase okapi = RawDatabase.connect(vertx, db)) {
      okapi.loadOkapiRows(ROWS, module.url());
    }
    try (GatewayFixture gateway = gateway()) {
      gateway
          .request()
          .get("/_/proxy/modules")
          .then()
          .statusCode(200)
          .body("id", hasItems("test-timer-1.0.0", "test-basic-1.0.0", "okapi-6.1.5"));
      gateway
          .request()
          .get("/_/proxy/tenants/diku")
          .then()
          .statusCode(200)
          .body("name", equalTo("Diku"))
          .body("description", equalTo("d"));
      gateway
          .request()
          .get("/_/proxy/tenants/diku/modules")
          .then()
          .statusCode(200)
          .body("id", equalTo(List.of("test-timer-1.0.0")));
      gateway
          .request()
          .get("/_/discovery/modules")
          .then()
          .statusCode(200)
          .body("instId", hasItems("tt-1", "tb-1", "localhost-9131"));
      gateway
          .request()
          .get("/_/proxy/tenants/diku/timers/test-timer_0")
          .then()
          .statusCode(200)
          .body("modified", equalTo(true))
          .body("routingEntry.unit", equalTo("minute"))
          .body("routingEntry.delay", equalTo("7"));
      gateway
          .request()
          .get("/_/proxy/tenants/diku/timers/test-timer_1")
          .then()
          .statusCode(200)
          .body("modified", equalTo(false));
      gateway
          .tenant("diku")
          .get("/testb/timer")
          .then()
          .statusCode(200)
          .body(equalTo("from the module"));
    }
  }

  @Test
  void writes_areOkapiRows_andWhatOkapiLacksIsKeptBeside() {
    try (GatewayFixture gateway = gateway()) {
      JsonObject descriptor =
          GatewayFixture.module(
                  "mod-x-1.0.0",
                  "x",
                  GatewayFixture.handler("GET", "/x").put("ourHint", "handler extra"))
              .put("ourField", new JsonObject().put("kept", true));
      JsonObject timers =
          new JsonObject()
              .put("id", "_timer")
              .put("version", "1.0")
              .put("interfaceType", "system")
              .put(
                  "handlers",
                  new JsonArray()
                      .add(
                          new JsonObject()
                              .put("methods", new JsonArray().add("POST"))
                              .put("pathPattern", "/x/tick")
                              .put("unit", "minute")
                              .put("delay", "1")));
      descriptor.getJsonArray("provides").add(timers);
      gateway
          .request()
          .body(new JsonObject().put("id", "diku").put("name", "D").put("ours", 1).encode())
          .post("/_/proxy/tenants")
          .then()
          .statusCode(201);
      gateway.install("diku", descriptor, module.url());
      gateway
          .request()
          .body("{\"unit\":\"minute\",\"delay\":\"9\"}")
          .patch("/_/proxy/tenants/diku/timers/mod-x_0")
          .then()
          .statusCode(204);

      gateway
          .request()
          .get("/_/proxy/modules/mod-x-1.0.0")
          .then()
          .statusCode(200)
          .body("ourField.kept", equalTo(true))
          .body("provides[0].handlers[0].ourHint", equalTo("handler extra"));
      gateway.request().get("/_/proxy/tenants/diku").then().body("ours", equalTo(1));
    }
    try (RawDatabase okapi = RawDatabase.connect(vertx, db)) {
      JsonObject module =
          okapi
              .json("SELECT modulejson FROM modules WHERE modulejson->>'id' = 'mod-x-1.0.0'")
              .get(0);
      assertThat(module.fieldNames()).containsExactlyInAnyOrder("id", "provides");
      assertThat(module.getJsonArray("provides").getJsonObject(0).getJsonArray("handlers"))
          .containsExactly(
              new JsonObject()
                  .put("methods", new JsonArray().add("GET"))
                  .put("pathPattern", "/x")
                  .put("permissionsRequired", new JsonArray()));
      assertThat(
              okapi.json(
                  "SELECT tenantjson FROM tenants WHERE tenantjson->'descriptor'->>'id' = 'diku'"))
          .containsExactly(
              new JsonObject()
                  .put("descriptor", new JsonObject().put("id", "diku").put("name", "D"))
                  .put("enabled", new JsonObject().put("mod-x-1.0.0", true)));
      assertThat(okapi.json("SELECT json FROM deployments"))
          .extracting(d -> d.getString("srvcId") + " " + d.getString("url"))
          .containsExactly("mod-x-1.0.0 " + this.module.url());
      assertThat(okapi.json("SELECT json FROM timers"))
          .containsExactly(
              new JsonObject()
                  .put("id", "diku_mod-x_0")
                  .put(
                      "routingEntry",
                      new JsonObject()
                          .put("methods", new JsonArray().add("POST"))
                          .put("pathPattern", "/x/tick")
                          .put("unit", "minute")
                          .put("delay", "9"))
                  .put("modified", true));
    }
  }

  @Test
  void instIdOfAnotherModule_refused_asOkapiKeysInstancesByInstIdAlone() {
    Storage storage = Storage.open(vertx, StorageOptions.of(db)).await();
    try {
      assertThat(
              storage
                  .registry()
                  .insertDeployment(new DeploymentDescriptor("mod-a-1.0.0", "i1", "http://a"))
                  .await())
          .isTrue();
      assertThat(
              storage
                  .registry()
                  .insertDeployment(new DeploymentDescriptor("mod-b-1.0.0", "i1", "http://b"))
                  .await())
          .isFalse();
      assertThat(storage.registry().deployments().await())
          .containsExactly(new DeploymentDescriptor("mod-a-1.0.0", "i1", "http://a"));
    } finally {
      storage.close().await();
    }
  }

  @Test
  void descriptorTheGatewayCannotRead_namedInTheFailure() {
    try (RawDatabase okapi = RawDatabase.connect(vertx, db)) {
      okapi.loadOkapiRows(ROWS, null);
      okapi.sql(
          "INSERT INTO modules VALUES ($1::jsonb)",
          GatewayFixture.module(
              "mod-odd-1.0.0", "odd", new JsonObject().put("pathPattern", "/odd")));
    }
    Storage storage = Storage.open(vertx, StorageOptions.of(db)).await();
    try {
      assertThatThrownBy(() -> storage.registry().modules().await())
          .hasMessageContaining("storage: module mod-odd-1.0.0 in table modules")
          .hasMessageContaining("missing methods");
    } finally {
      storage.close().await();
    }
  }

  @Test
  void moduleOkapiReplaced_isServedAsOkapiWroteIt_notAsTheKeptOriginal() {
    try (GatewayFixture gateway = gateway()) {
      gateway.addModule(
          GatewayFixture.module("mod-y-1.0.0", "y", GatewayFixture.handler("GET", "/y"))
              .put("ourField", "old"));
    }
    try (RawDatabase okapi = RawDatabase.connect(vertx, db)) {
      okapi.sql("DELETE FROM modules WHERE modulejson->>'id' = 'mod-y-1.0.0'");
      okapi.sql(
          "INSERT INTO modules VALUES ($1::jsonb)",
          new JsonObject().put("id", "mod-y-1.0.0").put("name", "re-registered by Okapi"));
    }
    try (GatewayFixture gateway = gateway()) {
      gateway
          .request()
          .get("/_/proxy/modules/mod-y-1.0.0")
          .then()
          .statusCode(200)
          .body("name", equalTo("re-registered by Okapi"))
          .body("ourField", equalTo(null));
    }
  }
}
