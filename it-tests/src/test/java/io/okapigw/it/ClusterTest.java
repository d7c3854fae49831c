package io.okapigw.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import io.okapigw.authtoken.AuthtokenOptions;
import io.okapigw.authtoken.AuthtokenVerticle;
import io.okapigw.authtoken.gateway.InvalidationOptions;
import io.okapigw.authtoken.password.PasswordOptions;
import io.okapigw.authtoken.users.BootstrapUser;
import io.okapigw.folio.register.AuthtokenDescriptor;
import io.okapigw.testsupport.Descriptors;
import io.okapigw.testsupport.process.GatewayCluster;
import io.restassured.specification.RequestSpecification;
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
 * Three gateway nodes in separate JVMs, clustered on 127.0.0.1, with the admin API protected (the
 * real authtoken module enabled for the supertenant, last): every admin call here carries
 * super_admin's token. A node killed mid-load: {@link ClusterLoadTest}.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class ClusterTest {

  @TempDir static Path dir;

  private static Vertx vertx;
  private static HttpServer module;
  private static GatewayCluster cluster;
  private static int authtokenPort;

  /** super_admin's token (okapi.all), for the admin API. */
  private static String superToken;

  @BeforeAll
  static void start() throws Exception {
    vertx = Vertx.vertx();
    module =
        vertx
            .createHttpServer()
            .requestHandler(req -> req.response().end("hello"))
            .listen(0, "127.0.0.1")
            .await();
    cluster = GatewayCluster.start(Jars.gateway(), 3, List.of());
    String node1 = cluster.url(0);
    AdminCalls admin = AdminCalls.at(node1);
    admin.createTenant("diku");
    admin.register(
        Descriptors.module("mod-hello-1.0.0", "hello", Descriptors.handler("GET", "/hello")),
        "http://127.0.0.1:" + module.actualPort());
    admin.enable("diku", "mod-hello-1.0.0");
    installAuthtoken(node1);
    admin.enable("supertenant", "mod-authtoken-1.0.0");
    superToken = login(node1, "supertenant", "super_admin");
  }

  private static String login(String node, String tenant, String username) {
    return AdminCalls.login(node, tenant, username, username);
  }

  /**
   * @return an admin request to node {@code i} as super_admin
   */
  private static RequestSpecification admin(int i) {
    return given().baseUri(cluster.url(i)).header("X-Okapi-Token", superToken);
  }

  /**
   * @return auth calls node {@code i} has made for tenant diku (its /_/metrics, no token)
   */
  private static double authCalls(int i) {
    return AdminCalls.authCalls(cluster.url(i), "diku");
  }

  private static double[] authCallsPerNode() {
    double[] calls = new double[cluster.size()];
    for (int i = 0; i < calls.length; i++) {
      calls[i] = authCalls(i);
    }
    return calls;
  }

  private static void getGuardedOnEveryNode(String token) {
    for (int i = 0; i < cluster.size(); i++) {
      given()
          .baseUri(cluster.url(i))
          .header("X-Okapi-Tenant", "diku")
          .header("X-Okapi-Token", token)
          .get("/guarded")
          .then()
          .statusCode(200);
    }
  }

  /** The real authtoken module, telling node 1 about permission changes; a guarded route. */
  private static void installAuthtoken(String node1) throws Exception {
    AuthtokenVerticle authtoken =
        new AuthtokenVerticle(
            AuthtokenOptions.onLoopback(dir)
                .withInvalidation(InvalidationOptions.to(node1))
                .withPasswords(PasswordOptions.cheapest())
                .withBootstrap(
                    List.of(
                        new BootstrapUser("diku", "alice", "alice", List.of("guarded.get")),
                        new BootstrapUser("diku", "bob", "bob", List.of("guarded.get")),
                        new BootstrapUser(
                            "supertenant", "super_admin", "super_admin", List.of("okapi.all")))));
    vertx.deployVerticle(authtoken).await();
    authtokenPort = authtoken.actualPort();
    AdminCalls admin = AdminCalls.at(node1);
    admin.register(AuthtokenDescriptor.read(), "http://127.0.0.1:" + authtokenPort);
    admin.register(
        Descriptors.module(
            "mod-guarded-1.0.0", "guarded", Descriptors.handler("GET", "/guarded", "guarded.get")),
        "http://127.0.0.1:" + module.actualPort());
    for (String id : List.of("mod-authtoken-1.0.0", "mod-guarded-1.0.0")) {
      admin.enable("diku", id);
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
      given()
          .baseUri(cluster.url(i))
          .header("X-Okapi-Tenant", "diku")
          .get("/hello")
          .then()
          .statusCode(200)
          .body(equalTo("hello"));
      admin(i)
          .get("/_/proxy/tenants/diku/modules")
          .then()
          .statusCode(200)
          .body("id", hasItem("mod-hello-1.0.0"));
    }
  }

  @Test
  void discoveryNodes_everyNodeListsTheThreeMembersWithTheirUrls() {
    List<String> urls =
        cluster.urls().stream().map(url -> url.replace("127.0.0.1", "localhost")).toList();
    for (int i = 0; i < 3; i++) {
      List<String> listed =
          admin(i)
              .get("/_/discovery/nodes")
              .then()
              .statusCode(200)
              .extract()
              .jsonPath()
              .getList("url");
      assertThat(listed).containsExactlyInAnyOrderElementsOf(urls);
      String nodeId = admin(i).get("/_/discovery/nodes").jsonPath().getString("[0].nodeId");
      admin(i)
          .get("/_/discovery/nodes/" + nodeId)
          .then()
          .statusCode(200)
          .body("nodeId", equalTo(nodeId));
    }
  }

  @Test
  void supertenantProtectedOnNode1_everyNodeRefusesAdminCallsWithoutSuperAdminsToken() {
    String alice = login(cluster.url(0), "diku", "alice");
    for (int i = 0; i < 3; i++) {
      given()
          .baseUri(cluster.url(i))
          .get("/_/proxy/health")
          .then()
          .statusCode(200)
          .body("adminApi.protected", equalTo(true))
          .body("adminApi.authModule", equalTo("mod-authtoken-1.0.0"));
      given().baseUri(cluster.url(i)).get("/_/proxy/tenants").then().statusCode(401);
      given()
          .baseUri(cluster.url(i))
          .header("X-Okapi-Tenant", "supertenant")
          .header("X-Okapi-Token", alice)
          .get("/_/proxy/tenants")
          .then()
          .statusCode(403);
      admin(i).get("/_/proxy/tenants").then().statusCode(200).body("id", hasItem("diku"));
    }
  }

  @Test
  void authModuleDiscoveryChangedOnOneNode_everyNodeAsksTheAuthModuleAgain() {
    String bob = login(cluster.url(0), "diku", "bob");
    getGuardedOnEveryNode(bob);
    double[] cached = authCallsPerNode();
    getGuardedOnEveryNode(bob);
    assertThat(authCallsPerNode())
        .as("bob's grant is cached on every node")
        .containsExactly(cached);

    admin(1)
        .body(
            "{\"srvcId\":\"mod-authtoken-1.0.0\",\"instId\":\"authtoken-b\","
                + "\"url\":\"http://127.0.0.1:"
                + authtokenPort
                + "\"}")
        .post("/_/discovery/modules")
        .then()
        .statusCode(201);
    getGuardedOnEveryNode(bob);
    double[] afterAdd = authCallsPerNode();
    admin(2).delete("/_/discovery/modules/mod-authtoken-1.0.0/authtoken-b").then().statusCode(204);
    getGuardedOnEveryNode(bob);
    double[] afterRemove = authCallsPerNode();

    for (int i = 0; i < 3; i++) {
      assertThat(afterAdd[i])
          .as("node %d after an instance was added on node 1", i)
          .isEqualTo(cached[i] + 1);
      assertThat(afterRemove[i])
          .as("node %d after it was removed on node 2", i)
          .isEqualTo(afterAdd[i] + 1);
    }
  }

  @Test
  void grantCachedOnAllNodes_permissionRevokedInAuthModule_nextRequestOnEveryNodeRefused() {
    String token =
        given()
            .baseUri(cluster.url(0))
            .header("X-Okapi-Tenant", "diku")
            .contentType("application/json")
            .body("{\"username\":\"alice\",\"password\":\"alice\"}")
            .post("/authn/login")
            .then()
            .statusCode(201)
            .extract()
            .header("X-Okapi-Token");
    for (int i = 0; i < 3; i++) {
      given()
          .baseUri(cluster.url(i))
          .header("X-Okapi-Tenant", "diku")
          .header("X-Okapi-Token", token)
          .get("/guarded")
          .then()
          .statusCode(200);
    }
    String userId =
        UUID.nameUUIDFromBytes("diku:alice".getBytes(StandardCharsets.UTF_8)).toString();
    given()
        .baseUri("http://127.0.0.1:" + authtokenPort)
        .header("X-Okapi-Tenant", "diku")
        .contentType("application/json")
        .body("[]")
        .put("/perms/users/" + userId + "/permissions")
        .then()
        .statusCode(204);
    for (int i = 0; i < 3; i++) {
      given()
          .baseUri(cluster.url(i))
          .header("X-Okapi-Tenant", "diku")
          .header("X-Okapi-Token", token)
          .get("/guarded")
          .then()
          .statusCode(403);
    }
  }

  @Test
  void invalidateOnOneNode_acknowledgedByAllMembers() {
    given()
        .baseUri(cluster.url(1))
        .body("{\"tenant\":\"diku\"}")
        .post("/_/proxy/auth-cache/invalidate")
        .then()
        .statusCode(401);
    admin(1)
        .body("{\"tenant\":\"diku\"}")
        .post("/_/proxy/auth-cache/invalidate")
        .then()
        .statusCode(204);
  }
}
