package io.okapigw.core.admin;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.okapigw.core.testing.GatewayFixture;
import io.restassured.response.ValidatableResponse;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Ids the admin API stores and later puts in paths, headers and log lines: discovery's {@code
 * srvcId} (a module id, with a version) and {@code instId}, a deployment's, module ids and tenant
 * ids. None may hold a control character, {@code /} or {@code ..}: a 400 naming the problem, and
 * nothing stored. Okapi 6.1.5 takes any {@code srvcId} and {@code instId} (and any character in a
 * module id); tenant ids it checks as we do.
 */
class AdminIdsTest {

  private static final String URL = "http://localhost:9999";

  private final GatewayFixture gw = new GatewayFixture();

  @AfterEach
  void stop() {
    gw.close();
  }

  private ValidatableResponse post(String path, JsonObject body) {
    return gw.request()
        .contentType("application/json; charset=UTF-8")
        .body(body.encode())
        .post(path)
        .then();
  }

  private static JsonObject instance(String srvcId, String instId) {
    return new JsonObject().put("srvcId", srvcId).put("instId", instId).put("url", URL);
  }

  private void noInstances() {
    gw.request().get("/_/discovery/modules").then().statusCode(200).body("size()", equalTo(0));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"a\r\nX-Injected: 1", "a\u0000", "a\u001b[2J", "a\u0085", "../../x", "a/b"})
  void discovery_badInstId_400NamingIt_nothingStored(String instId) {
    post("/_/discovery/modules", instance("mod-a-1.0.0", instId))
        .statusCode(400)
        .body(containsString("instId"));
    noInstances();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"../../x", "mod-a/../b-1.0.0", "mod-a-1.0.0\r\n", "mod-\u001b-1.0.0", "mod-a"})
  void discovery_srvcIdNotAModuleId_400NamingIt_nothingStored(String srvcId) {
    post("/_/discovery/modules", instance(srvcId, "a-1"))
        .statusCode(400)
        .body(containsString("srvcId"));
    noInstances();
  }

  @Test
  void deployment_badIds_400NamingThem_nothingStarted() {
    JsonObject launch = new JsonObject().put("exec", "java -jar m.jar %p");
    post(
            "/_/deployment/modules",
            new JsonObject()
                .put("srvcId", "mod-a-1.0.0")
                .put("instId", "../x")
                .put("descriptor", launch))
        .statusCode(400)
        .body(containsString("instId"));
    post(
            "/_/deployment/modules",
            new JsonObject().put("srvcId", "../../x").put("descriptor", launch))
        .statusCode(400)
        .body(containsString("srvcId"));
    post(
            "/_/discovery/modules",
            new JsonObject()
                .put("srvcId", "mod-a-1.0.0")
                .put("instId", "a\r\nb")
                .put("nodeId", "localhost")
                .put("descriptor", launch))
        .statusCode(400)
        .body(containsString("instId"));
    gw.request().get("/_/deployment/modules").then().body("size()", equalTo(0));
    noInstances();
  }

  @Test
  void discovery_put_badIds_400() {
    post("/_/discovery/modules", instance("mod-a-1.0.0", "a-1")).statusCode(201);
    gw.request()
        .body(instance("mod-a-1.0.0", "a-1\u0007").encode())
        .put("/_/discovery/modules/mod-a-1.0.0/a-1%07")
        .then()
        .statusCode(400)
        .body(containsString("instId"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"mod-a/b-1.0.0", "mod-..-1.0.0", "mod-a\u0085-1.0.0", "mod-a\u0000-1.0.0"})
  void moduleDescriptor_badId_400NamingIt_nothingStored(String id) {
    post("/_/proxy/modules", new JsonObject().put("id", id))
        .statusCode(400)
        .body(containsString("id"));
    gw.request()
        .get("/_/proxy/modules")
        .then()
        .body("id", org.hamcrest.Matchers.not(org.hamcrest.Matchers.hasItem(id)));
  }

  @ParameterizedTest
  @ValueSource(strings = {"t1\r\n", "../t1", "t/1", "t\u0000"})
  void tenant_badId_400_nothingStored(String id) {
    post("/_/proxy/tenants", new JsonObject().put("id", id)).statusCode(400);
    gw.request().get("/_/proxy/tenants").then().body("size()", equalTo(1));
  }

  @Test
  void goodIds_stored() {
    post("/_/discovery/modules", instance("mod-a-1.0.0-SNAPSHOT.7+b.1", "a_1.x-2~3:4"))
        .statusCode(201);
    post("/_/discovery/modules", instance("mod-a-1.0.0", "9f0c1a2e-1b3c-4d5e-8f90-123456789abc"))
        .statusCode(201);
    gw.request().get("/_/discovery/modules").then().body("size()", equalTo(2));
  }
}
