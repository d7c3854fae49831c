package io.okapigw.it;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;

import io.okapigw.testsupport.Descriptors;
import io.okapigw.testsupport.TestPostgres;
import io.okapigw.testsupport.process.GatewayCluster;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A cluster on PostgreSQL storage: everything down, then up, and the registry is all back. Its test
 * starts two 3-node clusters, each given {@link
 * io.okapigw.testsupport.process.JavaProcess#PATIENCE} to start: its hang guard is far above both
 * (they took over 6 minutes together beside two CPU-bound processes).
 */
@Timeout(value = 20, unit = TimeUnit.MINUTES)
class ClusterRestartTest {

  private static Vertx vertx;
  private static HttpServer module;

  @BeforeAll
  static void start() {
    vertx = Vertx.vertx();
    module =
        vertx
            .createHttpServer()
            .requestHandler(req -> req.response().end("still here"))
            .listen(0, "127.0.0.1")
            .await();
  }

  @AfterAll
  static void stop() {
    vertx.close().await();
  }

  @Test
  void fullRestartWithPostgresStorage_bringsBackModulesTenantsEnablementAndInstances()
      throws Exception {
    List<String> storage = List.of("--storage", TestPostgres.get().createDatabase());
    GatewayCluster first = GatewayCluster.start(Jars.gateway(), 3, storage);
    String node2 = first.url(1);
    given()
        .baseUri(node2)
        .body("{\"id\":\"diku\",\"name\":\"Datalogisk\"}")
        .post("/_/proxy/tenants")
        .then()
        .statusCode(201);
    given()
        .baseUri(node2)
        .body(
            Descriptors.module("mod-hello-1.0.0", "hello", Descriptors.handler("GET", "/hello"))
                .encode())
        .post("/_/proxy/modules")
        .then()
        .statusCode(201);
    given()
        .baseUri(node2)
        .body(
            "{\"srvcId\":\"mod-hello-1.0.0\",\"instId\":\"one\",\"url\":"
                + "\"http://127.0.0.1:"
                + module.actualPort()
                + "\"}")
        .post("/_/discovery/modules")
        .then()
        .statusCode(201);
    given()
        .baseUri(node2)
        .body("{\"id\":\"mod-hello-1.0.0\"}")
        .post("/_/proxy/tenants/diku/modules")
        .then()
        .statusCode(201);
    for (int i = 0; i < 3; i++) {
      first.kill(i);
    }

    try (GatewayCluster second = GatewayCluster.start(Jars.gateway(), 3, storage)) {
      for (int i = 0; i < 3; i++) {
        given()
            .baseUri(second.url(i))
            .header("X-Okapi-Tenant", "diku")
            .get("/hello")
            .then()
            .statusCode(200)
            .body(equalTo("still here"));
      }
      given()
          .baseUri(second.url(0))
          .get("/_/proxy/tenants/diku")
          .then()
          .statusCode(200)
          .body("name", equalTo("Datalogisk"));
      given()
          .baseUri(second.url(0))
          .get("/_/discovery/modules/mod-hello-1.0.0/one")
          .then()
          .statusCode(200);
      given()
          .baseUri(second.url(2))
          .get("/_/proxy/tenants/diku/modules")
          .then()
          .body("id", hasItems("mod-hello-1.0.0"));
    }
  }
}
