package io.okapigw.it.hostile;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;

import io.okapigw.demo.DemoOptions;
import io.okapigw.demo.DemoStack;
import io.restassured.specification.RequestSpecification;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 42's critical chain on the stack {@code ./gateway demo} runs (the gateway, the authtoken
 * module, tenant diku with the okapi module enabled, as the shipped register job installs it):
 * {@code diku_admin}, holding {@code authtoken.all} as bootstrapped, gave itself {@code okapi.all}
 * (204), then as a diku user read the operator's {@code /_/env} with {@code DB_PASSWORD}, deployed
 * a {@code cmdlineStart} and created tenants. Now the grant is refused as mod-permissions 6.5.0
 * refuses it, and even a diku user who does hold {@code okapi.all} is not the operator.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OperatorEscalationTest {

  @TempDir static Path dir;

  private static Vertx vertx;
  private static DemoStack stack;

  @BeforeAll
  static void start() throws Exception {
    vertx = Vertx.vertx();
    stack =
        DemoStack.start(vertx, new DemoOptions(0, 5, 5, true, true, dir))
            .await(2, TimeUnit.MINUTES);
    superAdmin()
        .body("{\"name\":\"DB_PASSWORD\",\"value\":\"operator-s3cret\"}")
        .post("/_/env")
        .then()
        .statusCode(201);
  }

  @AfterAll
  static void stop() throws Exception {
    if (stack != null) {
      stack.close().await(1, TimeUnit.MINUTES);
    }
    if (vertx != null) {
      vertx.close().await(1, TimeUnit.MINUTES);
    }
  }

  private static RequestSpecification gateway() {
    return given().baseUri(stack.gatewayUrl());
  }

  private static String login(String tenant, String username, String password) {
    return gateway()
        .header("X-Okapi-Tenant", tenant)
        .contentType("application/json")
        .body(new JsonObject().put("username", username).put("password", password).encode())
        .post("/authn/login")
        .then()
        .statusCode(201)
        .extract()
        .header("X-Okapi-Token");
  }

  private static RequestSpecification superAdmin() {
    return gateway()
        .header(
            "X-Okapi-Token",
            login("supertenant", DemoOptions.SUPER_ADMIN, DemoOptions.SUPER_ADMIN_PASSWORD));
  }

  private static RequestSpecification dikuAdmin() {
    return gateway()
        .header("X-Okapi-Tenant", DemoOptions.TENANT)
        .header(
            "X-Okapi-Token",
            login(DemoOptions.TENANT, DemoOptions.ADMIN, DemoOptions.ADMIN_PASSWORD));
  }

  private static String userId(String token) {
    String payload = token.split("\\.")[1];
    return new JsonObject(
            new String(Base64.getUrlDecoder().decode(payload), StandardCharsets.UTF_8))
        .getString("user_id");
  }

  private static String dikuAdminId() {
    return userId(login(DemoOptions.TENANT, DemoOptions.ADMIN, DemoOptions.ADMIN_PASSWORD));
  }

  private static List<String> permissions(RequestSpecification as, String userId) {
    return as.get("/perms/users/" + userId)
        .then()
        .statusCode(200)
        .extract()
        .jsonPath()
        .getList("permissions", String.class);
  }

  /**
   * The smuggling finding chained to the authtoken module: an anonymous login whose {@code
   * Connection} header names its {@code Content-Length}, its body a whole {@code PUT
   * /perms/users/{id}/permissions} with {@code okapi.all}. On ac01f53 the module read the body as a
   * second, tokenless request (which its own port trusts) and ran the PUT.
   */
  @Test
  @Order(0)
  void anonymousLogin_bodyIsAPermissionsPut_neverRunAsARequest() throws Exception {
    String id = dikuAdminId();
    List<String> before = permissions(dikuAdmin(), id);
    String grant = new JsonArray(new ArrayList<>(before)).add("okapi.all").encode();
    String smuggled =
        "PUT /perms/users/"
            + id
            + "/permissions HTTP/1.1\r\nHost: x\r\nX-Okapi-Tenant: "
            + DemoOptions.TENANT
            + "\r\nContent-Type: application/json\r\nContent-Length: "
            + grant.getBytes(StandardCharsets.UTF_8).length
            + "\r\n\r\n"
            + grant;
    int port = java.net.URI.create(stack.gatewayUrl()).getPort();
    try (RawConnection client = RawConnection.open(port)) {
      RawResponse login =
          client
              .send(
                  "POST /authn/login HTTP/1.1\r\nHost: x\r\nX-Okapi-Tenant: "
                      + DemoOptions.TENANT
                      + "\r\nContent-Type: application/json"
                      + "\r\nConnection: keep-alive, Content-Length\r\nContent-Length: "
                      + smuggled.getBytes(StandardCharsets.UTF_8).length
                      + "\r\n\r\n"
                      + smuggled)
              .response();
      // the module got the PUT as the login's body: not JSON credentials
      assertThat(login.status()).isBetween(400, 499);
    }
    // later calls through the same pooled module connections: a stray answer or a run PUT shows
    for (int i = 0; i < 5; i++) {
      permissions(dikuAdmin(), id);
    }
    assertThat(permissions(dikuAdmin(), id)).doesNotContain("okapi.all").isEqualTo(before);
  }

  @Test
  @Order(1)
  void dikuAdmin_givesItselfOkapiAll_403AsModPermissions_holdsNoMoreThanBefore() {
    String id = dikuAdminId();
    List<String> before = permissions(dikuAdmin(), id);
    JsonArray escalated = new JsonArray(new ArrayList<>(before)).add("okapi.all");

    dikuAdmin()
        .contentType("application/json")
        .body(escalated.encode())
        .put("/perms/users/" + id + "/permissions")
        .then()
        .statusCode(403)
        .body(containsString("Cannot add okapi permission okapi.all not owned by operating user"));
    dikuAdmin()
        .contentType("application/json")
        .body(
            new JsonObject()
                .put("username", "operator")
                .put("password", "operator")
                .put("permissions", new JsonArray().add("okapi.all"))
                .encode())
        .post("/users")
        .then()
        .statusCode(403);

    assertThat(permissions(dikuAdmin(), id)).isEqualTo(before);
    dikuAdmin().get("/_/env").then().statusCode(403).body(not(containsString("operator-s3cret")));
  }

  @Test
  @Order(2)
  void dikuUserHoldingOkapiAll_isStillNotTheOperator_403NamingTheRule() throws Exception {
    // as if granted before this rule (FOLIO's diku_admin often held okapi.all): set on the
    // authtoken module's own port, which trusts its network
    String authtoken =
        superAdmin()
            .get("/_/discovery/modules/mod-authtoken-1.0.0")
            .then()
            .statusCode(200)
            .extract()
            .jsonPath()
            .getString("[0].url");
    String id = dikuAdminId();
    List<String> held = permissions(dikuAdmin(), id);
    given()
        .baseUri(authtoken)
        .header("X-Okapi-Tenant", DemoOptions.TENANT)
        .contentType("application/json")
        .body(new JsonArray(new ArrayList<>(held)).add("okapi.all").encode())
        .put("/perms/users/" + id + "/permissions")
        .then()
        .statusCode(204);
    Path ran = dir.resolve("ran-on-the-host");

    dikuAdmin()
        .get("/_/env")
        .then()
        .statusCode(403)
        .body(containsString("only users of the supertenant may call it"))
        .body(not(containsString("operator-s3cret")));
    dikuAdmin()
        .contentType("application/json")
        .body(
            new JsonObject()
                .put("srvcId", "mod-evil-1.0.0")
                .put("nodeId", "localhost")
                .put(
                    "descriptor",
                    new JsonObject()
                        .put("exec", "touch " + ran + " %p")
                        .put("cmdlineStart", "touch " + ran))
                .encode())
        .post("/_/deployment/modules")
        .then()
        .statusCode(403)
        .body(containsString("runs or stops processes"));
    dikuAdmin()
        .contentType("application/json")
        .body("{\"id\":\"intruder\"}")
        .post("/_/proxy/tenants")
        .then()
        .statusCode(403);
    // its own tenant's calls, which okapi.all does open, go on
    dikuAdmin().get("/_/proxy/tenants/" + DemoOptions.TENANT + "/modules").then().statusCode(200);

    assertThat(Files.exists(ran)).as("nothing ran on the host").isFalse();
    superAdmin().get("/_/proxy/tenants/intruder").then().statusCode(404);
    superAdmin().get("/_/env/DB_PASSWORD").then().statusCode(200);
  }

  @Test
  @Order(3)
  void superAdmin_holdsBothAssignPermissions() {
    String token = login("supertenant", DemoOptions.SUPER_ADMIN, DemoOptions.SUPER_ADMIN_PASSWORD);
    List<String> expanded =
        gateway()
            .header("X-Okapi-Token", token)
            .get("/perms/users/" + userId(token) + "?expanded=true")
            .then()
            .statusCode(200)
            .extract()
            .jsonPath()
            .getList("expandedPermissions", String.class);
    assertThat(expanded).contains("perms.users.assign.okapi", "perms.users.assign.immutable");
  }
}
