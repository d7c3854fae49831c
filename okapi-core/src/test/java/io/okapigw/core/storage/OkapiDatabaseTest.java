package io.okapigw.core.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.startsWith;

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
import java.nio.charset.StandardCharsets;
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
  private static final String LENIENT_ROWS = "/storage/okapi-6.1.5-lenient-rows.json";

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

  /**
   * Okapi 6.1.5 takes descriptors with less than this gateway once asked of new ones (a handler
   * without methods, a pattern without a leading /, numbers where its beans hold strings, odd ids,
   * optional interfaces without a version, ...; the rows as Okapi wrote them): a database holding
   * them starts and is served as Okapi serves it, each descriptor as Okapi wrote it, the entries
   * Okapi never matches never matched.
   */
  @Test
  void descriptorsOkapiTook_servedAsOkapiServesThem() {
    JsonArray rows = RawDatabase.resourceJson(LENIENT_ROWS).getJsonArray("modules");
    try (RawDatabase okapi = RawDatabase.connect(vertx, db)) {
      okapi.loadOkapiRows(LENIENT_ROWS, module.url());
    }
    try (GatewayFixture gateway = gateway()) {
      for (Object row : rows) {
        JsonObject descriptor = (JsonObject) row;
        String path = "/_/proxy/modules/" + pathSegment(descriptor.getString("id"));
        String served =
            gateway
                .request()
                .urlEncodingEnabled(false)
                .get(path)
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertThat(new JsonObject(served)).isEqualTo(descriptor);
      }
      gateway
          .request()
          .get("/_/proxy/tenants/odd/modules")
          .then()
          .statusCode(200)
          .body(
              "id",
              equalTo(
                  List.of(
                      "mod-baddelay-1.0.0",
                      "mod-emptyprovid-1.0.0",
                      "mod-filternm-1.0.0",
                      "mod-nomethods-1.0.0",
                      "mod-noslash-1.0.0",
                      "mod-nounit-1.0.0",
                      "mod-numbers-1.0.0",
                      "mod-optnover-1.0.0")));
      gateway
          .request()
          .get("/_/proxy/tenants/odd/timers")
          .then()
          .statusCode(200)
          .body("id", equalTo(List.of("mod-baddelay_0", "mod-nounit_0", "mod-numbers_0")))
          .body("routingEntry.delay", equalTo(List.of("soon", "5", "20")));
      for (String never : List.of("/nm", "/em", "/ns/x", "/pns", "/ep")) {
        gateway
            .tenant("odd")
            .get(never)
            .then()
            .statusCode(404)
            .body(startsWith("no module serves"));
      }
      gateway.tenant("odd").get("/nu").then().statusCode(200).body(equalTo("from the module"));
    }
  }

  /**
   * An install script posts the descriptors Okapi registered again, as they are in its files: the
   * same descriptor for Okapi (it compares what its beans write back) is the same here, whatever
   * form Okapi stored it in ({@code "delay": 20} stored as {@code "20"}, {@code name: 5} as {@code
   * "5"}, fields in another order, a {@code null} or an absent field, Okapi's defaults); a changed
   * one is refused, as Okapi refuses it.
   */
  @Test
  void descriptorOkapiStored_postedAgainAsInItsFile_isTheSame() {
    try (RawDatabase okapi = RawDatabase.connect(vertx, db)) {
      okapi.loadOkapiRows(LENIENT_ROWS, module.url());
    }
    String asPosted =
        "{\"requires\":[],\"replaces\":[],\"filters\":null,\"name\":5,\"tags\":[1,true],"
            + "\"id\":\"mod-numbers-1.0.0\",\"provides\":[{\"version\":1.0,\"id\":\"nu\","
            + "\"handlers\":[{\"methods\":[\"GET\"],\"pathPattern\":\"/nu\","
            + "\"permissionsRequired\":[],\"delegateCORS\":false}]},{\"id\":\"_timer\","
            + "\"version\":\"1.0\",\"interfaceType\":\"system\",\"handlers\":[{\"methods\":"
            + "[\"POST\"],\"pathPattern\":\"/nu/t\",\"unit\":\"second\",\"delay\":20}]}]}";
    try (GatewayFixture gateway = gateway()) {
      String before = gateway.request().get("/_/proxy/modules/mod-numbers-1.0.0").asString();
      gateway.request().body(asPosted).post("/_/proxy/modules").then().statusCode(201);
      gateway
          .request()
          .body("[" + asPosted + "]")
          .post("/_/proxy/import/modules")
          .then()
          .statusCode(204);
      gateway
          .request()
          .body(asPosted.replace("\"delay\":20", "\"delay\":21"))
          .post("/_/proxy/modules")
          .then()
          .statusCode(400)
          .body(containsString("mod-numbers-1.0.0 already exists with a different descriptor"));
      gateway
          .request()
          .get("/_/proxy/modules/mod-numbers-1.0.0")
          .then()
          .statusCode(200)
          .body(equalTo(before));
    }
  }

  /** A module id in a path, each character outside letters, digits, '-', '.' and '_' escaped. */
  private static String pathSegment(String id) {
    StringBuilder path = new StringBuilder();
    for (byte b : id.getBytes(StandardCharsets.UTF_8)) {
      char c = (char) b;
      boolean plain = Character.isLetterOrDigit(c) || c == '-' || c == '.' || c == '_';
      path.append(plain && b > 0 ? String.valueOf(c) : String.format("%%%02X", b & 0xff));
    }
    return path.toString();
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
