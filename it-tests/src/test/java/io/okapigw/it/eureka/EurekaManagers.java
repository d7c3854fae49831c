package io.okapigw.it.eureka;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The answers a folio-module-sidecar reads at start, as FOLIO's managers give them (shapes from
 * their OpenAPI specs and the sidecar's clients): mgr-applications {@code GET /modules/{id}} (the
 * module's bootstrap: its interfaces and, for each module it requires, the location of that
 * module's sidecar), mgr-tenant-entitlements {@code GET /entitlements/modules/{id}} and mgr-tenants
 * {@code GET /tenants?query=id==(...)}. One tenant, one application, entitled to every module.
 */
final class EurekaManagers implements AutoCloseable {

  static final String APPLICATION = "app-side-by-side-1.0.0";

  private final HttpServer server;
  private final String tenant;
  private final String tenantId = UUID.randomUUID().toString();
  private final Map<String, JsonObject> bootstraps = new ConcurrentHashMap<>();

  private EurekaManagers(Vertx vertx, String tenant) {
    this.tenant = tenant;
    this.server = vertx.createHttpServer().requestHandler(this::answer);
  }

  static EurekaManagers start(Vertx vertx, String tenant) {
    EurekaManagers managers = new EurekaManagers(vertx, tenant);
    managers.server.listen(0, "127.0.0.1").await();
    return managers;
  }

  String url() {
    return "http://127.0.0.1:" + server.actualPort();
  }

  /**
   * Makes {@code descriptor}'s module known, served by the sidecar at {@code location}, requiring
   * the modules {@code required} (descriptor and sidecar location each).
   */
  void module(
      JsonObject descriptor, String location, List<Map.Entry<JsonObject, String>> required) {
    JsonArray requiredModules = new JsonArray();
    required.forEach(r -> requiredModules.add(discovery(r.getKey(), r.getValue())));
    bootstraps.put(
        descriptor.getString("id"),
        new JsonObject()
            .put("module", discovery(descriptor, location))
            .put("requiredModules", requiredModules));
  }

  private static JsonObject discovery(JsonObject descriptor, String location) {
    JsonArray interfaces = new JsonArray();
    for (Object p : descriptor.getJsonArray("provides")) {
      JsonObject itf = (JsonObject) p;
      JsonObject bootstrap =
          new JsonObject()
              .put("id", itf.getString("id"))
              .put("version", itf.getString("version"))
              .put("endpoints", itf.getJsonArray("handlers").copy());
      if (itf.containsKey("interfaceType")) {
        bootstrap.put("interfaceType", itf.getString("interfaceType"));
      }
      interfaces.add(bootstrap);
    }
    return new JsonObject()
        .put("moduleId", descriptor.getString("id"))
        .put("applicationId", APPLICATION)
        .put("location", location)
        .put("systemUserRequired", false)
        .put("interfaces", interfaces);
  }

  private void answer(HttpServerRequest req) {
    String path = req.path();
    if (path.startsWith("/modules/")) {
      JsonObject bootstrap = bootstraps.get(path.substring("/modules/".length()));
      if (bootstrap == null) {
        req.response().setStatusCode(404).end();
      } else {
        json(req, bootstrap);
      }
    } else if (path.startsWith("/entitlements/modules/")) {
      String module = path.substring("/entitlements/modules/".length());
      JsonObject entitlement =
          new JsonObject()
              .put("applicationId", APPLICATION)
              .put("tenantId", tenantId)
              .put("modules", new JsonArray().add(module));
      json(
          req,
          new JsonObject()
              .put("totalRecords", 1)
              .put("entitlements", new JsonArray().add(entitlement)));
    } else if ("/tenants".equals(path)) {
      JsonObject t =
          new JsonObject().put("id", tenantId).put("name", tenant).put("description", tenant);
      json(req, new JsonObject().put("totalRecords", 1).put("tenants", new JsonArray().add(t)));
    } else {
      req.response().setStatusCode(404).end("no stub for " + path);
    }
  }

  private static void json(HttpServerRequest req, JsonObject body) {
    req.response().putHeader("Content-Type", "application/json").end(body.encode());
  }

  @Override
  public void close() {
    server.close().await();
  }
}
