package io.okapigw.it;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import io.okapigw.authtoken.AuthtokenOptions;
import io.okapigw.authtoken.AuthtokenVerticle;
import io.okapigw.authtoken.BootstrapUser;
import io.okapigw.perf.process.GatewayCluster;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three gateway nodes in separate JVMs, clustered on 127.0.0.1. A node killed mid-load:
 * {@link ClusterLoadTest}.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class ClusterTest {

  @TempDir
  static Path dir;

  private static Vertx vertx;
  private static HttpServer module;
  private static GatewayCluster cluster;
  private static int authtokenPort;

  @BeforeAll
  static void start() throws Exception {
    vertx = Vertx.vertx();
    module = vertx.createHttpServer().requestHandler(req -> req.response().end("hello"))
        .listen(0, "127.0.0.1").await();
    cluster = GatewayCluster.start(Jars.gateway(), 3, List.of());
    String node1 = cluster.url(0);
    given().baseUri(node1).body("{\"id\":\"diku\"}").post("/_/proxy/tenants")
        .then().statusCode(201);
    given().baseUri(node1).body("{\"id\":\"mod-hello-1.0.0\",\"provides\":[{\"id\":\"hello\","
            + "\"version\":\"1.0\",\"handlers\":[{\"methods\":[\"GET\"],\"pathPattern\":\"/hello\"}]}]}")
        .post("/_/proxy/modules").then().statusCode(201);
    given().baseUri(node1).body("{\"srvcId\":\"mod-hello-1.0.0\",\"url\":\"http://127.0.0.1:"
        + module.actualPort() + "\"}").post("/_/discovery/modules").then().statusCode(201);
    given().baseUri(node1).body("{\"id\":\"mod-hello-1.0.0\"}")
        .post("/_/proxy/tenants/diku/modules").then().statusCode(201);
    installAuthtoken(node1);
  }

  /** The real authtoken module, telling node 1 about permission changes; a guarded route. */
  private static void installAuthtoken(String node1) throws Exception {
    AuthtokenVerticle authtoken = new AuthtokenVerticle(new AuthtokenOptions().setPort(0)
        .setHost("127.0.0.1").setStore("json:" + dir)
        .setSigningKeyFile(dir.resolve("signing.key").toString()).setGatewayUrl(node1)
        .setPasswordHashIterations(AuthtokenOptions.MIN_PASSWORD_HASH_ITERATIONS)
        .addBootstrapUser(new BootstrapUser("diku", "alice", "alice", List.of("guarded.get"))));
    vertx.deployVerticle(authtoken).await();
    authtokenPort = authtoken.actualPort();
    String descriptor;
    try (var in = ClusterTest.class.getResourceAsStream("/descriptors/ModuleDescriptor.json")) {
      descriptor = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    given().baseUri(node1).body(descriptor).post("/_/proxy/modules").then().statusCode(201);
    given().baseUri(node1).body("{\"srvcId\":\"mod-authtoken-1.0.0\",\"url\":\"http://127.0.0.1:"
        + authtokenPort + "\"}").post("/_/discovery/modules").then().statusCode(201);
    given().baseUri(node1).body("{\"id\":\"mod-guarded-1.0.0\",\"provides\":[{\"id\":\"guarded\","
            + "\"version\":\"1.0\",\"handlers\":[{\"methods\":[\"GET\"],\"pathPattern\":\"/guarded\","
            + "\"permissionsRequired\":[\"guarded.get\"]}]}]}")
        .post("/_/proxy/modules").then().statusCode(201);
    given().baseUri(node1).body("{\"srvcId\":\"mod-guarded-1.0.0\",\"url\":\"http://127.0.0.1:"
        + module.actualPort() + "\"}").post("/_/discovery/modules").then().statusCode(201);
    for (String id : List.of("mod-authtoken-1.0.0", "mod-guarded-1.0.0")) {
      given().baseUri(node1).body("{\"id\":\"" + id + "\"}")
          .post("/_/proxy/tenants/diku/modules").then().statusCode(201);
    }
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
    if (vertx != null) {
      vertx.close().await();
    }
  }

  @Test
  void registeredOnNode1_routesThroughEveryNodeAtOnce() {
    for (int i = 0; i < 3; i++) {
      given().baseUri(cluster.url(i)).header("X-Okapi-Tenant", "diku").get("/hello")
          .then().statusCode(200).body(equalTo("hello"));
      given().baseUri(cluster.url(i)).get("/_/proxy/tenants/diku/modules")
          .then().body("[0].id", equalTo("mod-hello-1.0.0"));
    }
  }

  @Test
  void grantCachedOnAllNodes_permissionRevokedInAuthModule_nextRequestOnEveryNodeRefused() {
    String token = given().baseUri(cluster.url(0)).header("X-Okapi-Tenant", "diku")
        .contentType("application/json").body("{\"username\":\"alice\",\"password\":\"alice\"}")
        .post("/authn/login").then().statusCode(201).extract().header("X-Okapi-Token");
    for (int i = 0; i < 3; i++) {
      given().baseUri(cluster.url(i)).header("X-Okapi-Tenant", "diku")
          .header("X-Okapi-Token", token).get("/guarded").then().statusCode(200);
    }
    String userId = UUID.nameUUIDFromBytes("diku:alice".getBytes(StandardCharsets.UTF_8))
        .toString();
    given().baseUri("http://127.0.0.1:" + authtokenPort).header("X-Okapi-Tenant", "diku")
        .contentType("application/json").body("[]")
        .put("/perms/users/" + userId + "/permissions").then().statusCode(204);
    for (int i = 0; i < 3; i++) {
      given().baseUri(cluster.url(i)).header("X-Okapi-Tenant", "diku")
          .header("X-Okapi-Token", token).get("/guarded").then().statusCode(403);
    }
  }

  @Test
  void invalidateOnOneNode_acknowledgedByAllMembers() {
    given().baseUri(cluster.url(1)).body("{\"tenant\":\"diku\"}")
        .post("/_/proxy/auth-cache/invalidate").then().statusCode(204);
  }
}
