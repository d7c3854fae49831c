package io.okapigw.core.deployment;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The part of the Docker Engine API (v1.35) Okapi's deployment uses, on a loopback port: images it
 * "has" (with their exposed ports), image pulls (recorded with their {@code X-Registry-Auth}),
 * containers created (their creation recorded), started (an HTTP server on the published port
 * stands for the module, answering {@code tiny}), their log (two lines, in Docker's multiplexed
 * frames), stopped and removed (the server closed).
 */
final class FakeDockerEngine implements AutoCloseable {

  /** A call the engine got: method, path and query, and the registry auth header if any. */
  record Call(String method, String uri, String registryAuth) {}

  private final Vertx vertx;
  private final HttpServer server;
  private final Map<String, String> images = new ConcurrentHashMap<>();
  private final Map<String, JsonObject> created = new ConcurrentHashMap<>();
  private final Map<String, HttpServer> running = new ConcurrentHashMap<>();
  private final List<Call> calls = new CopyOnWriteArrayList<>();

  private FakeDockerEngine(Vertx vertx) {
    this.vertx = vertx;
    this.server = vertx.createHttpServer().requestHandler(this::handle).listen(0).await();
  }

  /** Starts the engine on a Vert.x of its own. */
  static FakeDockerEngine start() {
    return new FakeDockerEngine(Vertx.vertx());
  }

  /** An image the engine has; {@code exposed} like {@code 8081/tcp}, or null for none. */
  FakeDockerEngine image(String name, String exposed) {
    images.put(name, exposed == null ? "" : exposed);
    return this;
  }

  String url() {
    return "tcp://localhost:" + server.actualPort();
  }

  List<Call> calls() {
    return List.copyOf(calls);
  }

  /**
   * @return the creations of the containers that exist, by id
   */
  Map<String, JsonObject> containers() {
    return Map.copyOf(created);
  }

  private void handle(HttpServerRequest request) {
    request
        .body()
        .onSuccess(
            body -> {
              calls.add(
                  new Call(
                      request.method().name(),
                      request.uri(),
                      request.getHeader("X-Registry-Auth")));
              route(request, body);
            });
  }

  private void route(HttpServerRequest request, Buffer body) {
    String path = request.path().replaceFirst("^/v1\\.35", "");
    String method = request.method().name();
    if (method.equals("POST") && path.equals("/images/create")) {
      request.response().setStatusCode(500).end("{\"message\":\"no registry here\"}\n");
    } else if (method.equals("GET") && path.startsWith("/images/") && path.endsWith("/json")) {
      String name = path.substring("/images/".length(), path.length() - "/json".length());
      String exposed = images.get(name);
      if (exposed == null) {
        request.response().setStatusCode(404).end("{\"message\":\"No such image: " + name + "\"}");
        return;
      }
      JsonObject config = new JsonObject();
      if (!exposed.isEmpty()) {
        config.put("ExposedPorts", new JsonObject().put(exposed, new JsonObject()));
      }
      request.response().end(new JsonObject().put("Config", config).encode());
    } else if (method.equals("POST") && path.equals("/containers/create")) {
      String id = "c" + (created.size() + 1) + "0123456789abcdef";
      created.put(id, body.toJsonObject());
      request.response().setStatusCode(201).end(new JsonObject().put("Id", id).encode());
    } else if (method.equals("POST") && path.endsWith("/start")) {
      String id = path.split("/")[2];
      int port =
          Integer.parseInt(
              created.get(id).getJsonObject("HostConfig").getJsonObject("PortBindings").stream()
                  .findFirst()
                  .map(e -> ((JsonArray) e.getValue()).getJsonObject(0))
                  .orElseThrow()
                  .getString("HostPort"));
      vertx
          .createHttpServer()
          .requestHandler(r -> r.response().end("tiny"))
          .listen(port)
          .onSuccess(s -> running.put(id, s))
          .onComplete(s -> request.response().setStatusCode(204).end());
    } else if (method.equals("GET") && path.endsWith("/logs")) {
      request.response().setChunked(true);
      request.response().write(frame("module: started\n"));
      request.response().write(frame("module: \u001b[31mred\u001b[0m\n"));
      request.response().write(frame("module: listening\n"));
    } else if (method.equals("POST") && path.endsWith("/stop")) {
      HttpServer module = running.remove(path.split("/")[2]);
      (module == null ? Future.<Void>succeededFuture() : module.close())
          .onComplete(v -> request.response().setStatusCode(204).end());
    } else if (method.equals("DELETE") && path.startsWith("/containers/")) {
      created.remove(path.split("/")[2]);
      request.response().setStatusCode(204).end();
    } else {
      request.response().setStatusCode(404).end("{\"message\":\"page not found\"}");
    }
  }

  /** Docker's multiplexed log frame: stream 1, three zero bytes, the length, the bytes. */
  private static Buffer frame(String text) {
    Buffer bytes = Buffer.buffer(text);
    return Buffer.buffer()
        .appendByte((byte) 1)
        .appendBytes(new byte[3])
        .appendInt(bytes.length())
        .appendBuffer(bytes);
  }

  @Override
  public void close() {
    vertx.close().await();
  }
}
