package io.okapigw.core.storage;

import static io.okapigw.core.testing.GatewayFixture.handler;
import static io.okapigw.core.testing.GatewayFixture.module;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.config.NodeOptions;
import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.TestModule;
import io.okapigw.testsupport.FreePorts;
import io.okapigw.testsupport.TestPostgres;
import io.restassured.RestAssured;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A node on a PostgreSQL server of its own, stopped ({@code pg_ctl stop -m fast}) and started
 * again: the registry is served from memory while it is away, a change is refused 503 naming the
 * database (it read "502 connection to a module failed"), {@code /liveness} says the process is
 * alive (it answered 500), and changes work again once it is back.
 */
class DatabaseAwayTest {

  private TestPostgres postgres;
  private GatewayFixture gw;
  private int healthPort;

  @BeforeEach
  void start() {
    String unavailable = TestPostgres.ownServerUnavailable();
    if (unavailable != null) {
      System.out.println("DatabaseAwayTest skipped: " + unavailable);
    }
    Assumptions.assumeTrue(unavailable == null, unavailable);
    postgres = TestPostgres.startOwn();
    healthPort = FreePorts.belowEphemeralRange();
    gw =
        new GatewayFixture(
            GatewayOptions.defaults(0)
                .withNode(new NodeOptions(null, healthPort, Duration.ZERO))
                .withStorage(StorageOptions.of(postgres.createDatabase())));
    TestModule items =
        TestModule.start(gw.vertx(), router -> router.route().handler(ctx -> ctx.end("item")));
    gw.createTenant("diku");
    gw.install(
        "diku", module("mod-items-1.0.0", "items", handler("GET", "/items/{id}")), items.url());
  }

  @AfterEach
  void stop() {
    if (gw != null) {
      gw.close();
    }
    if (postgres != null) {
      postgres.close();
    }
  }

  @Test
  void databaseStopped_readsFromMemory_changes503NamingIt_livenessAlive_changesBackAfter() {
    postgres.stop();
    try {
      gw.request()
          .get("/_/proxy/tenants/diku/modules?full=true")
          .then()
          .statusCode(200)
          .body("id", hasItem("mod-items-1.0.0"));
      gw.request().get("/_/proxy/modules/mod-items-1.0.0").then().statusCode(200);
      gw.request().get("/_/proxy/tenants").then().statusCode(200).body("id", hasItem("diku"));
      gw.request()
          .get("/_/discovery/modules/mod-items-1.0.0")
          .then()
          .statusCode(200)
          .body("[0].srvcId", equalTo("mod-items-1.0.0"));
      gw.request().get("/_/proxy/tenants/diku/install").then().statusCode(200);
      gw.tenant("diku").get("/items/1").then().statusCode(200);
      RestAssured.given()
          .baseUri("http://127.0.0.1:" + healthPort)
          .get("/liveness")
          .then()
          .statusCode(204);

      gw.request()
          .body("{\"id\":\"other\"}")
          .post("/_/proxy/tenants")
          .then()
          .statusCode(503)
          .body(containsString("storage unavailable: PostgreSQL at 127.0.0.1:"));
    } finally {
      postgres.start();
    }
    gw.request().body("{\"id\":\"other\"}").post("/_/proxy/tenants").then().statusCode(201);
    gw.request().get("/_/proxy/tenants").then().statusCode(200).body("id", hasItem("other"));
  }
}
