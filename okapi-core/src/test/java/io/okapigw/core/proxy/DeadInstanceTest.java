package io.okapigw.core.proxy;

import static io.okapigw.core.testing.GatewayFixture.handler;
import static io.okapigw.core.testing.GatewayFixture.module;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.RawClient;
import io.okapigw.testsupport.Await;
import io.okapigw.testsupport.FreePorts;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 25's "Why": a module with two instances, one of them dead. Okapi (and this gateway before
 * health-aware choice) sent every other request to the dead one and answered it 502 until someone
 * edited discovery; now a call that never reached an instance goes to the other one, and the dead
 * one is ejected.
 */
class DeadInstanceTest {

  @RegisterExtension final GatewayFixture gw = new GatewayFixture();
  private HttpServer live;
  private String deadUrl;

  @BeforeEach
  void start() {
    live =
        gw.vertx()
            .createHttpServer()
            .requestHandler(req -> req.response().end("live"))
            .listen(0, "127.0.0.1")
            .await();
    deadUrl = "http://127.0.0.1:" + FreePorts.closed();
    gw.createTenant("diku");
    gw.addModule(module("mod-two-1.0.0", "two", handler("*", "/two/*")));
    gw.deploy("mod-two-1.0.0", "http://127.0.0.1:" + live.actualPort());
    gw.deploy("mod-two-1.0.0", deadUrl);
    gw.enable("diku", "mod-two-1.0.0");
  }

  @Test
  void oneOfTwoInstancesDead_everyRequestAnswered_byTheLiveOne() {
    List<Integer> statuses = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      statuses.add(gw.tenant("diku").get("/two/items").statusCode());
    }
    assertThat(statuses).as("statuses of 20 GETs").containsOnly(200);
  }

  @Test
  void discoveryHealth_okapisFields_learnedOnlyWhenAsked() {
    for (int i = 0; i < 10; i++) {
      gw.tenant("diku").get("/two/items").then().statusCode(200);
    }
    JsonArray plain =
        new JsonArray(
            gw.request()
                .get("/_/discovery/health/mod-two-1.0.0")
                .then()
                .statusCode(200)
                .extract()
                .asString());
    for (Object entry : plain) {
      assertThat(((JsonObject) entry).fieldNames())
          .containsExactlyInAnyOrder("instId", "srvcId", "healthMessage", "healthStatus");
    }
    JsonArray learned =
        new JsonArray(
            gw.request()
                .get("/_/discovery/health/mod-two-1.0.0?learned=true")
                .then()
                .statusCode(200)
                .extract()
                .asString());
    JsonObject dead = null;
    JsonObject alive = null;
    for (Object entry : learned) {
      JsonObject health = (JsonObject) entry;
      if (health.getBoolean("healthStatus")) {
        alive = health;
      } else {
        dead = health;
      }
    }
    assertThat(dead.getJsonObject("learned").getBoolean("ejected")).as(dead.encode()).isTrue();
    assertThat(dead.getJsonObject("learned").getLong("ejectedForMs")).isPositive();
    assertThat(dead.getJsonObject("learned").getLong("ejections")).isEqualTo(1);
    assertThat(alive.getJsonObject("learned").getBoolean("ejected")).isFalse();
    assertThat(alive.getJsonObject("learned").getInteger("consecutiveFailures")).isZero();
    gw.request().get("/_/discovery/health?learned=maybe").then().statusCode(400);
  }

  @Test
  void clientsLeavingWhileTheModuleWorks_neverCountAgainstIt() throws Exception {
    List<HttpServerRequest> held = new CopyOnWriteArrayList<>();
    AtomicInteger closed = new AtomicInteger();
    List<Integer> ports = new ArrayList<>();
    gw.addModule(module("mod-slow-1.0.0", "slow", handler("*", "/slow/*")));
    for (int i = 0; i < 2; i++) {
      HttpServer slow =
          gw.vertx()
              .createHttpServer()
              .requestHandler(
                  req -> {
                    if (req.path().equals("/")) {
                      req.response().end(); // the health check
                      return;
                    }
                    req.connection().closeHandler(v -> closed.incrementAndGet());
                    held.add(req);
                  })
              .listen(0, "127.0.0.1")
              .await();
      ports.add(slow.actualPort());
      gw.deploy("mod-slow-1.0.0", "http://127.0.0.1:" + slow.actualPort());
    }
    gw.enable("diku", "mod-slow-1.0.0");
    for (int i = 0; i < 12; i++) {
      int expected = i + 1;
      try (RawClient client = RawClient.connect(gw.gateway().port())) {
        client.send("GET /slow/items HTTP/1.1\r\nHost: x\r\nX-Okapi-Tenant: diku\r\n\r\n");
        Await.until(() -> held.size() == expected, expected + " requests held");
      }
      // the gateway gave the module's side up: its connection is closed
      Await.until(() -> closed.get() == expected, expected + " connections closed");
    }
    String learned =
        gw.request()
            .get("/_/discovery/health/mod-slow-1.0.0?learned=true")
            .then()
            .extract()
            .asString();
    assertThat(learned)
        .contains("\"consecutiveFailures\" : 0")
        .doesNotContain("\"ejected\" : true");
    assertThat(gw.request().get("/_/metrics").asString())
        .doesNotContain("okapi_module_ejections_total");
  }

  @Test
  void instanceKilledMidRun_noRequestFailsAfterwards() {
    HttpServer second =
        gw.vertx()
            .createHttpServer()
            .requestHandler(req -> req.response().end("second"))
            .listen(0, "127.0.0.1")
            .await();
    gw.addModule(module("mod-three-1.0.0", "three", handler("*", "/three/*")));
    gw.deploy("mod-three-1.0.0", "http://127.0.0.1:" + live.actualPort());
    gw.deploy("mod-three-1.0.0", "http://127.0.0.1:" + second.actualPort());
    gw.enable("diku", "mod-three-1.0.0");
    List<String> before = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      before.add(gw.tenant("diku").get("/three/items").then().statusCode(200).extract().asString());
    }
    assertThat(before).contains("live", "second");
    // the gateway holds pooled connections to both; one instance goes away with its connections
    second.close().await();
    List<Integer> statuses = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      statuses.add(gw.tenant("diku").get("/three/items").statusCode());
    }
    assertThat(statuses).as("statuses after the kill").containsOnly(200);
  }

  @Test
  void oneOfTwoInstancesDead_postsAnsweredToo_theyNeverReachedIt() {
    List<Integer> statuses = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      statuses.add(gw.tenant("diku").body("{\"a\":1}").post("/two/items").statusCode());
    }
    assertThat(statuses).as("statuses of 10 POSTs").containsOnly(200);
  }
}
