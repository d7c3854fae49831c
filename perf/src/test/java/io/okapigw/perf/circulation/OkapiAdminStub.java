package io.okapigw.perf.circulation;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The admin calls of {@link GatewayRegistration} answered as Okapi 6.1.5 answers them (seen on
 * a real one): 201 with the stored JSON on creation, 404 with the missing id as text, 204 on
 * delete, 400 "Needs instId" for a deployment without one, 400 "Missing field
 * permissionsRequired" for a provided handler without it. Keeps every POST it accepted, in
 * order.
 */
final class OkapiAdminStub {

  private final Map<String, JsonObject> resources = new ConcurrentHashMap<>();
  private final Map<String, JsonArray> instances = new ConcurrentHashMap<>();
  final List<String> posts = new CopyOnWriteArrayList<>();
  private HttpServer server;

  /** @return the stub's base URL once it listens on a free 127.0.0.1 port */
  Future<String> start(Vertx vertx) {
    return vertx.createHttpServer()
        .requestHandler(req -> req.body().onSuccess(body -> answer(req,
            body.length() == 0 ? null : body.toJsonObject())))
        .listen(0, "127.0.0.1")
        .map(s -> {
          server = s;
          return "http://127.0.0.1:" + s.actualPort();
        });
  }

  Future<Void> close() {
    return server.close();
  }

  /** @return the instances discovery lists for the module, empty if none */
  JsonArray instances(String srvcId) {
    return instances.getOrDefault(srvcId, new JsonArray());
  }

  private void answer(HttpServerRequest req, JsonObject body) {
    String path = req.path();
    switch (req.method().name()) {
      case "GET" -> get(req, path);
      case "DELETE" -> reply(req, instances.remove(last(path)) == null ? 404 : 204, "");
      case "POST" -> post(req, path, body);
      default -> reply(req, 405, req.method().name());
    }
  }

  private void get(HttpServerRequest req, String path) {
    if (path.startsWith("/_/discovery/modules/")) {
      JsonArray list = instances.get(last(path));
      reply(req, list == null ? 404 : 200, list == null ? last(path) : list.encode());
    } else {
      JsonObject found = resources.get(path);
      reply(req, found == null ? 404 : 200, found == null ? last(path) : found.encode());
    }
  }

  private void post(HttpServerRequest req, String path, JsonObject body) {
    String error = path.equals("/_/discovery/modules") ? discoveryError(body)
        : path.equals("/_/proxy/modules") ? descriptorError(body) : "";
    String id = body.getString(path.startsWith("/_/discovery") ? "instId" : "id");
    String location = path + "/" + id;
    if (error.isEmpty() && resources.containsKey(location)) {
      error = "duplicate " + id;
    }
    if (!error.isEmpty()) {
      reply(req, 400, error);
      return;
    }
    posts.add(path + " " + id);
    if (path.startsWith("/_/discovery")) {
      instances.computeIfAbsent(body.getString("srvcId"), k -> new JsonArray()).add(body);
    } else {
      resources.put(location, body);
    }
    req.response().putHeader("Location", location);
    reply(req, 201, body.encode());
  }

  private static String discoveryError(JsonObject deployment) {
    return deployment.getString("instId") == null ? "Needs instId" : "";
  }

  private static String descriptorError(JsonObject descriptor) {
    for (Object provided : descriptor.getJsonArray("provides", new JsonArray())) {
      JsonObject api = (JsonObject) provided;
      if ("system".equals(api.getString("interfaceType"))) {
        continue;
      }
      for (Object handler : api.getJsonArray("handlers", new JsonArray())) {
        JsonObject h = (JsonObject) handler;
        if (!h.containsKey("permissionsRequired")) {
          return "Module '" + descriptor.getString("id") + "' handler "
              + h.getString("pathPattern") + ": Missing field permissionsRequired";
        }
      }
    }
    return "";
  }

  private static String last(String path) {
    return path.substring(path.lastIndexOf('/') + 1);
  }

  private static void reply(HttpServerRequest req, int status, String body) {
    req.response().setStatusCode(status)
        .putHeader("Content-Type", status < 300 ? "application/json" : "text/plain").end(body);
  }
}
