package io.okapigw.it;

import static io.restassured.RestAssured.given;

import io.restassured.specification.RequestSpecification;
import io.vertx.core.json.JsonObject;
import java.util.function.Supplier;

/**
 * The admin API calls the tests set a gateway up with, each expecting the status the gateway (and
 * Okapi) answers on success: a tenant, a module and its one instance, a module enabled for a
 * tenant, a login through the gateway.
 */
public final class AdminCalls {

  private final Supplier<RequestSpecification> admin;

  /**
   * @param admin a new request to the admin API (base URI, and a token if it needs one)
   */
  public AdminCalls(Supplier<RequestSpecification> admin) {
    this.admin = admin;
  }

  /**
   * @return calls to the open admin API at {@code baseUri}
   */
  public static AdminCalls at(String baseUri) {
    return new AdminCalls(() -> given().baseUri(baseUri));
  }

  public void createTenant(String id) {
    admin
        .get()
        .body(new JsonObject().put("id", id).encode())
        .post("/_/proxy/tenants")
        .then()
        .statusCode(201);
  }

  /** Posts the descriptor, then points discovery at the module's one instance. */
  public void register(JsonObject descriptor, String url) {
    admin
        .get()
        .body(descriptor.encode())
        .post("/_/proxy/modules")
        .then()
        .log()
        .ifValidationFails()
        .statusCode(201);
    admin
        .get()
        .body(
            new JsonObject()
                .put("srvcId", descriptor.getString("id"))
                .put("instId", descriptor.getString("id") + "-1")
                .put("url", url)
                .encode())
        .post("/_/discovery/modules")
        .then()
        .statusCode(201);
  }

  public void enable(String tenant, String moduleId) {
    admin
        .get()
        .body(new JsonObject().put("id", moduleId).encode())
        .post("/_/proxy/tenants/" + tenant + "/modules")
        .then()
        .statusCode(201);
  }

  public void disable(String tenant, String moduleId) {
    admin
        .get()
        .delete("/_/proxy/tenants/" + tenant + "/modules/" + moduleId)
        .then()
        .statusCode(204);
  }

  /**
   * @return the token of a login through the gateway at {@code baseUri}
   */
  public static String login(String baseUri, String tenant, String username, String password) {
    return given()
        .baseUri(baseUri)
        .header("X-Okapi-Tenant", tenant)
        .contentType("application/json")
        .body(new JsonObject().put("username", username).put("password", password).encode())
        .post("/authn/login")
        .then()
        .statusCode(201)
        .extract()
        .header("X-Okapi-Token");
  }

  /**
   * @return the auth decisions the gateway at {@code baseUri} has loaded for {@code tenant}: its
   *     auth filter's or Keycloak's calls ({@code okapi_auth_calls_total} of its /_/metrics)
   */
  public static double authCalls(String baseUri, String tenant) {
    String metrics =
        given().baseUri(baseUri).get("/_/metrics").then().statusCode(200).extract().asString();
    return metrics
        .lines()
        .filter(
            l -> l.startsWith("okapi_auth_calls_total{") && l.contains("tenant=\"" + tenant + "\""))
        .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
        .sum();
  }
}
