package io.okapigw.folio.register;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The admin calls of {@link GatewayRegistration} answered as Okapi 6.1.5 answers them (seen on a
 * real one): 201 with the stored JSON on creation, 404 with the missing id as text, 204 on delete,
 * 400 "Needs instId" for a deployment without one, 400 "Missing field permissionsRequired" for a
 * provided handler without it; an install enables every entry and answers the plan (200). Keeps
 * every POST it accepted, in order. With {@link #superAdmin} set, it also plays the auth module:
 * {@code POST /authn/login} for the supertenant issues a token, and once a module is enabled for
 * the supertenant every admin call needs the latest token (401 otherwise), as Okapi with
 * mod-authtoken does.
 */
final class OkapiAdminStub {

  private static final String SUPERTENANT_MODULES = "/_/proxy/tenants/supertenant/modules";
  static final String OKAPI_MODULE = "okapi-6.1.5";

  private final Map<String, JsonObject> resources = new ConcurrentHashMap<>();
  private final Map<String, JsonArray> instances = new ConcurrentHashMap<>();
  final List<String> posts = new CopyOnWriteArrayList<>();

  /** Every 404 answered, as {@code METHOD path}: each is an INFO line at a real gateway. */
  final List<String> notFound = new CopyOnWriteArrayList<>();

  final AtomicInteger logins = new AtomicInteger();
  private final AtomicInteger refusals = new AtomicInteger();
  private volatile JsonObject superAdmin;
  private volatile String validToken;
  private HttpServer server;

  /**
   * @return the stub's base URL once it listens on a free 127.0.0.1 port
   */
  Future<String> start(Vertx vertx) {
    return vertx
        .createHttpServer()
        .requestHandler(
            req ->
                req.body()
                    .onSuccess(
                        body -> answer(req, body.length() == 0 ? null : Json.decodeValue(body))))
        .listen(0, "127.0.0.1")
        .map(
            s -> {
              server = s;
              return "http://127.0.0.1:" + s.actualPort();
            });
  }

  Future<Void> close() {
    return server.close();
  }

  /** Lets this user log in to the supertenant (and so use the admin API once protected). */
  void superAdmin(String username, String password) {
    superAdmin = new JsonObject().put("username", username).put("password", password);
  }

  /**
   * @return whether a module is enabled for the supertenant (then admin calls need a token)
   */
  boolean isProtected() {
    return resources.keySet().stream().anyMatch(k -> k.startsWith(SUPERTENANT_MODULES + "/"));
  }

  /** Refuses the token issued last from now on, as if it had expired. */
  void expireToken() {
    validToken = null;
  }

  /**
   * @return admin calls refused for want of a valid token
   */
  int refusals() {
    return refusals.get();
  }

  /**
   * @return the instances discovery lists for the module, empty if none
   */
  JsonArray instances(String srvcId) {
    return instances.getOrDefault(srvcId, new JsonArray());
  }

  private void answer(HttpServerRequest req, Object body) {
    String path = req.path();
    if (path.equals("/authn/login")) {
      login(req, (JsonObject) body);
      return;
    }
    if (isProtected()
        && (validToken == null || !validToken.equals(req.getHeader("X-Okapi-Token")))) {
      refusals.incrementAndGet();
      reply(req, 401, "Invalid token");
      return;
    }
    switch (req.method().name()) {
      case "GET" -> get(req, path);
      case "DELETE" -> reply(req, instances.remove(last(path)) == null ? 404 : 204, "");
      case "POST" -> {
        if (path.endsWith("/install")) {
          install(req, path, (JsonArray) body);
        } else {
          post(req, path, (JsonObject) body);
        }
      }
      default -> reply(req, 405, req.method().name());
    }
  }

  private void login(HttpServerRequest req, JsonObject credentials) {
    if (superAdmin == null
        || !"supertenant".equals(req.getHeader("X-Okapi-Tenant"))
        || !superAdmin.equals(credentials)) {
      reply(req, 422, "Invalid credentials");
      return;
    }
    validToken = "token-" + logins.incrementAndGet();
    req.response().putHeader("X-Okapi-Token", validToken);
    reply(req, 201, "{}");
  }

  private void get(HttpServerRequest req, String path) {
    if (path.matches("/_/proxy/tenants/[^/]+/modules")) {
      JsonArray enabled = new JsonArray();
      resources.keySet().stream()
          .filter(k -> k.startsWith(path + "/"))
          .sorted()
          .forEach(k -> enabled.add(new JsonObject().put("id", last(k))));
      reply(req, 200, enabled.encode());
    } else if (path.equals("/_/proxy/tenants")) {
      JsonArray tenants = new JsonArray().add(new JsonObject().put("id", "supertenant"));
      listed(path).forEach(t -> tenants.add(new JsonObject().put("id", t)));
      reply(req, 200, tenants.encode());
    } else if (path.equals("/_/proxy/modules")) {
      JsonArray modules = new JsonArray();
      listed(path).forEach(m -> modules.add(new JsonObject().put("id", m)));
      reply(req, 200, modules.encode());
    } else if (path.equals("/_/discovery/modules")) {
      JsonArray all = new JsonArray();
      instances.values().forEach(all::addAll);
      reply(req, 200, all.encode());
    } else if (path.startsWith("/_/discovery/modules/")) {
      JsonArray list = instances.get(last(path));
      reply(req, list == null ? 404 : 200, list == null ? last(path) : list.encode());
    } else {
      JsonObject found = resources.get(path);
      reply(req, found == null ? 404 : 200, found == null ? last(path) : found.encode());
    }
  }

  private void post(HttpServerRequest req, String path, JsonObject body) {
    String error =
        path.equals("/_/discovery/modules")
            ? discoveryError(body)
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

  /**
   * Okapi's install: every entry enabled, answered with the plan (200); the product {@code okapi}
   * is Okapi's own module {@value #OKAPI_MODULE}.
   */
  private void install(HttpServerRequest req, String path, JsonArray entries) {
    String modules = path.replace("/install", "/modules");
    List<String> ids =
        entries.stream()
            .map(e -> ((JsonObject) e).getString("id"))
            .map(id -> "okapi".equals(id) ? OKAPI_MODULE : id)
            .toList();
    ids.forEach(id -> resources.put(modules + "/" + id, new JsonObject().put("id", id)));
    posts.add(path + " " + String.join(",", ids));
    reply(req, 200, entries.encode());
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
          return "Module '"
              + descriptor.getString("id")
              + "' handler "
              + h.getString("pathPattern")
              + ": Missing field permissionsRequired";
        }
      }
    }
    return "";
  }

  /**
   * @return the ids of the resources directly below a collection, sorted
   */
  private List<String> listed(String collection) {
    return resources.keySet().stream()
        .filter(k -> k.startsWith(collection + "/") && k.indexOf('/', collection.length() + 1) < 0)
        .map(OkapiAdminStub::last)
        .sorted()
        .toList();
  }

  private static String last(String path) {
    return path.substring(path.lastIndexOf('/') + 1);
  }

  private void reply(HttpServerRequest req, int status, String body) {
    if (status == 404) {
      notFound.add(req.method() + " " + req.path());
    }
    req.response()
        .setStatusCode(status)
        .putHeader("Content-Type", status < 300 ? "application/json" : "text/plain")
        .end(body);
  }
}
