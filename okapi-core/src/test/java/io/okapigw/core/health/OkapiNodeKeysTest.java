package io.okapigw.core.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.config.NodeOptions;
import io.okapigw.core.storage.StorageOptions;
import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.LogCapture;
import io.okapigw.core.testing.TestModule;
import io.okapigw.testsupport.Await;
import io.okapigw.testsupport.FreePorts;
import io.okapigw.testsupport.TestPostgres;
import io.restassured.RestAssured;
import io.vertx.core.Promise;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.SqlClient;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Okapi's {@code healthPort} ({@code /readiness}, {@code /liveness}), {@code nodename} and {@code
 * log_wait_ms} on a running node, answered as Okapi 6.1.5 answers them (checked side by side).
 */
class OkapiNodeKeysTest {

  private static GatewayFixture gateway(NodeOptions node) {
    return new GatewayFixture(GatewayOptions.defaults(0).withNode(node));
  }

  private static GatewayFixture gateway(NodeOptions node, StorageOptions storage) {
    return new GatewayFixture(GatewayOptions.defaults(0).withNode(node).withStorage(storage));
  }

  private static String health(int port) {
    return "http://127.0.0.1:" + port;
  }

  @Test
  void healthPort_readinessAndLiveness204_otherMethod405_otherPath404() {
    int port = FreePorts.belowEphemeralRange();
    try (GatewayFixture gw = gateway(new NodeOptions(null, port, Duration.ZERO))) {
      RestAssured.given().baseUri(health(port)).get("/readiness").then().statusCode(204);
      RestAssured.given().baseUri(health(port)).get("/liveness").then().statusCode(204);
      RestAssured.given()
          .baseUri(health(port))
          .post("/readiness")
          .then()
          .statusCode(405)
          .header("allow", "GET");
      RestAssured.given().baseUri(health(port)).get("/_/proxy/health").then().statusCode(404);
      gw.request().get("/_/proxy/health").then().statusCode(200);
    }
  }

  @Test
  void healthPort_zero_noListener_asOkapi() throws Exception {
    int port = FreePorts.belowEphemeralRange();
    try (GatewayFixture gw = gateway(NodeOptions.defaults())) {
      HttpRequest readiness =
          HttpRequest.newBuilder(URI.create(health(port) + "/readiness")).build();
      HttpClient client = HttpClient.newHttpClient();
      try {
        client.send(readiness, HttpResponse.BodyHandlers.discarding());
        throw new AssertionError("something answered on the unconfigured health port " + port);
      } catch (ConnectException expected) {
        assertThat(gw.gateway().port()).isNotEqualTo(port);
      }
    }
  }

  @Test
  void liveness_databaseBroken_still204_itSaysWhetherTheProcessIsAlive() {
    String db = TestPostgres.get().createDatabase();
    int port = FreePorts.belowEphemeralRange();
    try (GatewayFixture gw =
        gateway(new NodeOptions(null, port, Duration.ZERO), StorageOptions.of(db))) {
      RestAssured.given().baseUri(health(port)).get("/liveness").then().statusCode(204);
      SqlClient sql =
          PgBuilder.client().connectingTo(PgConnectOptions.fromUri(db)).using(gw.vertx()).build();
      sql.query("DROP TABLE tenants CASCADE").execute().await();
      sql.close().await();

      RestAssured.given().baseUri(health(port)).get("/liveness").then().statusCode(204);
      RestAssured.given().baseUri(health(port)).get("/readiness").then().statusCode(204);
      gw.request()
          .get("/_/proxy/tenants")
          .then()
          .statusCode(200)
          .body("id", org.hamcrest.Matchers.hasItem("supertenant"));
    }
  }

  @Test
  void nodename_listedAsNodeName_andFindsTheNode() {
    try (GatewayFixture gw = gateway(new NodeOptions("okapi-a", 0, Duration.ZERO))) {
      gw.request()
          .get("/_/discovery/nodes")
          .then()
          .statusCode(200)
          .body("nodeName", hasItem("okapi-a"))
          .body("url", hasItem(gw.gateway().okapiUrl()));
      gw.request()
          .get("/_/discovery/nodes/okapi-a")
          .then()
          .statusCode(200)
          .body("nodeId", equalTo(gw.gateway().nodeId()))
          .body("nodeName", equalTo("okapi-a"));
    }
  }

  @Test
  void logWaitMs_aWaitingRequest_loggedEveryPeriodAsOkapi_noQueryNoToken() throws IOException {
    Promise<Void> release = Promise.promise();
    try (LogCapture log = new LogCapture();
        GatewayFixture gw = gateway(new NodeOptions(null, 0, Duration.ofMillis(50)));
        TestModule module =
            TestModule.start(
                gw.vertx(),
                r ->
                    r.get("/slow")
                        .handler(
                            ctx -> release.future().onComplete(v -> ctx.response().end("done"))))) {
      gw.createTenant("diku");
      gw.install(
          "diku",
          GatewayFixture.module("mod-slow-1.0.0", "slow", GatewayFixture.handler("GET", "/slow")),
          module.url());
      HttpClient client = HttpClient.newHttpClient();
      var answer =
          client.sendAsync(
              HttpRequest.newBuilder(URI.create(gw.url() + "/slow?secret=q"))
                  .header("X-Okapi-Tenant", "diku")
                  .header("X-Okapi-Request-Id", "123456/slow")
                  .build(),
              HttpResponse.BodyHandlers.ofString());

      assertThat(module.take().uri()).isEqualTo("/slow?secret=q");
      Await.until(
          () -> slowLines(log).size() >= 2, "two WAIT lines while the module holds the answer");
      release.complete();

      assertThat(answer.join().body()).isEqualTo("done");
      assertThat(slowLines(log).get(0))
          .matches(
              "INFO WaitLog - 123456/slow;\\d{6}/slow~[A-Za-z0-9_-]{8} WAIT 127\\.0\\.0\\.1:\\d+ diku GET /slow"
                  + " \\d+\\.\\d{3}s mod-slow-1\\.0\\.0");
    }
  }

  private static List<String> slowLines(LogCapture log) {
    return log.lines().stream().filter(l -> l.contains(" WAIT ") && l.contains(" /slow ")).toList();
  }
}
