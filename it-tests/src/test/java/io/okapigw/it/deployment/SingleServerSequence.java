package io.okapigw.it.deployment;

import static io.restassured.RestAssured.given;

import io.okapigw.testsupport.Await;
import io.restassured.response.Response;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * FOLIO's single-server installation, as its guide runs it against Okapi: {@code /_/env} set,
 * descriptors pulled from a registry, a tenant, {@code install?deploy=true} of two storage modules
 * (their {@code _tenant} 2.0 jobs run), a call served, one module disabled (undeployed), the other
 * undeployed with {@code DELETE /_/deployment/modules/{instId}}. Each step's status and answer is
 * kept in a form two gateways can be compared by: instance ids and URLs (ports) left out.
 */
final class SingleServerSequence {

  /** One step and what it answered. */
  record Step(String request, int status, Object answer) {
    @Override
    public String toString() {
      return request + " -> " + status + " " + answer;
    }
  }

  private final String gateway;
  private final String registry;
  private final List<Step> steps = new ArrayList<>();

  private SingleServerSequence(String gateway, String registry) {
    this.gateway = gateway;
    this.registry = registry;
  }

  /**
   * Runs the sequence against {@code gateway}, pulling from {@code registry}.
   *
   * @return every step, in order
   */
  static List<Step> run(String gateway, String registry) {
    SingleServerSequence sequence = new SingleServerSequence(gateway, registry);
    sequence.run();
    return sequence.steps;
  }

  private void run() {
    send("POST", "/_/env", new JsonObject().put("name", "DB_HOST").put("value", "localhost"));
    send("POST", "/_/env", new JsonObject().put("name", "DB_PORT").put("value", "5432"));
    send("GET", "/_/env", null);
    send(
        "POST",
        "/_/proxy/pull/modules",
        new JsonObject().put("urls", new JsonArray().add(registry)));
    send("POST", "/_/proxy/tenants", new JsonObject().put("id", "diku"));
    send(
        "POST",
        "/_/proxy/tenants/diku/install?deploy=true&preRelease=false"
            + "&tenantParameters=loadReference%3Dtrue",
        new JsonArray()
            .add(new JsonObject().put("id", "mod-inventory-storage").put("action", "enable"))
            .add(new JsonObject().put("id", "mod-circulation-storage").put("action", "enable")));
    deployments();
    send("GET", "/_/discovery/modules", null);
    served("/locations");
    served("/loan-storage/loans");
    send(
        "POST",
        "/_/proxy/tenants/diku/install?deploy=true",
        new JsonArray()
            .add(new JsonObject().put("id", "mod-circulation-storage").put("action", "disable")));
    awaitDeployments(1);
    deployments();
    String instId =
        given()
            .baseUri(gateway)
            .get("/_/deployment/modules")
            .then()
            .extract()
            .jsonPath()
            .getString("[0].instId");
    send("DELETE", "/_/deployment/modules/" + instId, null, "/_/deployment/modules/{instId}");
    deployments();
    send("GET", "/_/discovery/modules", null);
    send("DELETE", "/_/deployment/modules/" + instId, null, "/_/deployment/modules/{instId}");
  }

  /**
   * Waits until {@code count} instances are deployed: Okapi undeploys after it answered the install
   * (this gateway before), so the next step would race Okapi's undeploy.
   */
  private void awaitDeployments(int count) {
    Await.until(
        () ->
            given().baseUri(gateway).get("/_/deployment/modules").jsonPath().getList("$").size()
                == count,
        count + " instance(s) deployed on " + gateway);
  }

  private void deployments() {
    send("GET", "/_/deployment/modules", null);
  }

  private void served(String path) {
    Response r = given().baseUri(gateway).header("X-Okapi-Tenant", "diku").get(path);
    steps.add(new Step("GET " + path + " (diku)", r.statusCode(), null));
  }

  private void send(String method, String path, Object body) {
    send(method, path, body, path);
  }

  private void send(String method, String path, Object body, String shown) {
    // the paths are written encoded, as an operator's curl sends them
    var request = given().baseUri(gateway).urlEncodingEnabled(false);
    if (body != null) {
      request = request.body(body.toString());
    }
    Response r = request.request(method, path);
    steps.add(new Step(method + " " + shown, r.statusCode(), normalized(r.asString())));
  }

  /** The answer without what differs between any two gateways: instance ids, URLs, ports. */
  static Object normalized(String text) {
    String trimmed = text.trim();
    if (trimmed.startsWith("[")) {
      List<Object> items = new ArrayList<>();
      new JsonArray(trimmed).forEach(o -> items.add(o instanceof JsonObject j ? strip(j) : o));
      items.sort(Comparator.comparing(Object::toString));
      return items;
    }
    if (trimmed.startsWith("{")) {
      return strip(new JsonObject(trimmed));
    }
    return trimmed.isEmpty() ? "" : "(text)";
  }

  private static JsonObject strip(JsonObject json) {
    JsonObject copy = json.copy();
    copy.remove("instId");
    copy.remove("url");
    copy.remove("startDate");
    copy.remove("endDate");
    return copy;
  }
}
