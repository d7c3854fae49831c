package io.okapigw.it.deployment;

import static io.restassured.RestAssured.given;

import io.okapigw.testsupport.Await;
import io.restassured.response.Response;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;

/**
 * FOLIO's single-server installation, its calls as its guide ("Single server with containers")
 * makes them against Okapi: descriptors pulled from a registry, the tenant, Okapi's module enabled
 * for it, {@code /_/env} set, the install simulated, then {@code install?deploy=true} of two
 * storage modules with the guide's {@code tenantParameters} (their {@code _tenant} 2.0 jobs run),
 * discovery and the tenant's modules, calls served, a frontend module (no launch descriptor)
 * enabled without {@code deploy}; then one module disabled (undeployed), the other undeployed with
 * {@code DELETE /_/deployment/modules/{instId}}. Each step's status and answer is kept in a form
 * two gateways can be compared by: instance ids and URLs (ports) left out.
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
    send(
        "POST",
        "/_/proxy/pull/modules",
        new JsonObject().put("urls", new JsonArray().add(registry)));
    send(
        "POST",
        "/_/proxy/tenants",
        new JsonObject()
            .put("id", "diku")
            .put("name", "Datalogisk Institut")
            .put("description", "Danish Library Technology Institute"));
    send("POST", "/_/proxy/tenants/diku/modules", new JsonObject().put("id", "okapi"));
    send("POST", "/_/env", new JsonObject().put("name", "DB_HOST").put("value", "localhost"));
    send("POST", "/_/env", new JsonObject().put("name", "DB_PORT").put("value", "5432"));
    send("GET", "/_/env", null);
    JsonArray backend =
        new JsonArray()
            .add(new JsonObject().put("id", "mod-inventory-storage").put("action", "enable"))
            .add(new JsonObject().put("id", "mod-circulation-storage").put("action", "enable"));
    send("POST", "/_/proxy/tenants/diku/install?simulate=true&preRelease=false", backend);
    send(
        "POST",
        "/_/proxy/tenants/diku/install?deploy=true&preRelease=false"
            + "&tenantParameters=loadReference%3Dtrue%2CloadSample%3Dfalse",
        backend);
    deployments();
    send("GET", "/_/discovery/modules", null);
    send("GET", "/_/proxy/tenants/diku/modules", null);
    served("/locations");
    served("/loan-storage/loans");
    send(
        "POST",
        "/_/proxy/tenants/diku/install?preRelease=false",
        new JsonArray().add(new JsonObject().put("id", Registry.FRONTEND).put("action", "enable")));
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

  /**
   * Sends one request to {@code gateway}.
   *
   * @return the step with its answer: JSON {@link #normalized}, text whole but for the nodes' URLs
   *     (an error naming a node)
   */
  static Step step(String gateway, String method, String path, Object body) {
    var request = given().baseUri(gateway);
    if (body != null) {
      request = request.body(body.toString());
    }
    Response r = request.request(method, path);
    String text = r.asString().trim();
    Object answer =
        text.startsWith("[") || text.startsWith("{")
            ? normalized(text)
            : text.replaceAll("http://[^/ ]+:[0-9]+", "http://{node}");
    return new Step(method + " " + path, r.statusCode(), answer);
  }

  /**
   * The answer without what differs between any two gateways: instance ids, URLs, ports, the
   * version of their own module.
   */
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
    if (copy.getValue("id") instanceof String id && id.matches("okapi-[0-9].*")) {
      copy.put("id", "okapi-{version}"); // each gateway's own module
    }
    return sorted(copy);
  }

  /** The same JSON with every object's keys in order: Okapi writes its beans' order. */
  private static JsonObject sorted(JsonObject json) {
    JsonObject sorted = new JsonObject();
    new TreeMap<>(json.getMap()).keySet().forEach(k -> sorted.put(k, sorted(json.getValue(k))));
    return sorted;
  }

  private static Object sorted(Object value) {
    if (value instanceof JsonObject o) {
      return sorted(o);
    }
    if (value instanceof JsonArray a) {
      JsonArray copy = new JsonArray();
      a.forEach(v -> copy.add(sorted(v)));
      return copy;
    }
    return value;
  }
}
