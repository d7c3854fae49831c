package io.okapigw.it;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import io.okapigw.demo.DemoOptions;
import io.okapigw.demo.DemoStack;
import io.restassured.specification.RequestSpecification;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stack {@code ./gateway demo} runs comes up with its admin API protected: the authtoken module
 * enabled for the supertenant after everything else, super_admin's token opening it, diku_admin's
 * (a librarian of tenant diku) not.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class DemoAdminApiTest {

  @TempDir static Path dir;

  private static Vertx vertx;
  private static DemoStack stack;

  @BeforeAll
  static void start() throws Exception {
    vertx = Vertx.vertx();
    stack =
        DemoStack.start(vertx, new DemoOptions(0, 50, 50, true, true, dir))
            .await(2, TimeUnit.MINUTES);
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
        .body("{\"username\":\"" + username + "\",\"password\":\"" + password + "\"}")
        .post("/authn/login")
        .then()
        .statusCode(201)
        .extract()
        .header("X-Okapi-Token");
  }

  @Test
  void health_saysProtectedByTheAuthtokenModule() {
    gateway()
        .get("/_/proxy/health")
        .then()
        .statusCode(200)
        .body("adminApi.protected", equalTo(true))
        .body("adminApi.authModule", equalTo("mod-authtoken-1.0.0"));
  }

  @Test
  void adminCall_withoutToken_401() {
    gateway()
        .get("/_/proxy/tenants")
        .then()
        .statusCode(401)
        .body(containsString("okapi.proxy.tenants.list"));
    gateway().body("{\"id\":\"intruder\"}").post("/_/proxy/tenants").then().statusCode(401);
  }

  @Test
  void adminCall_dikuAdminsToken_refused() {
    String librarian = login(DemoOptions.TENANT, DemoOptions.ADMIN, DemoOptions.ADMIN_PASSWORD);

    gateway()
        .header("X-Okapi-Tenant", "supertenant")
        .header("X-Okapi-Token", librarian)
        .get("/_/proxy/tenants")
        .then()
        .statusCode(403);
    // routed for the token's tenant, which has the okapi module (as FOLIO installs enable it):
    // listing every tenant needs okapi.proxy.tenants.list, which a librarian lacks
    gateway().header("X-Okapi-Token", librarian).get("/_/proxy/tenants").then().statusCode(403);
    // its own tenant's modules need no permission (Okapi's permissionsRequiredTenant)
    gateway()
        .header("X-Okapi-Token", librarian)
        .get("/_/proxy/tenants/" + DemoOptions.TENANT + "/modules")
        .then()
        .statusCode(200);
  }

  @Test
  void adminCall_superAdminsToken_200() {
    String superAdmin =
        login("supertenant", DemoOptions.SUPER_ADMIN, DemoOptions.SUPER_ADMIN_PASSWORD);

    gateway()
        .header("X-Okapi-Token", superAdmin)
        .get("/_/proxy/tenants")
        .then()
        .statusCode(200)
        .body("id", hasItem(DemoOptions.TENANT));
    gateway()
        .header("X-Okapi-Token", superAdmin)
        .get("/_/proxy/tenants/supertenant/modules")
        .then()
        .statusCode(200)
        .body("id", hasItem("mod-authtoken-1.0.0"));
  }

  @Test
  void metrics_withoutToken_200() {
    gateway()
        .get("/_/metrics")
        .then()
        .statusCode(200)
        .body(containsString("okapi_auth_calls_total"));
  }
}
