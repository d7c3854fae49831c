package io.okapigw.core.deployment;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.SocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.function.Consumer;

/**
 * The Docker Engine API, as Okapi calls it (API version {@value #API_VERSION}): over its Unix
 * socket ({@code unix:///var/run/docker.sock}) or TCP, with Vert.x's HTTP client, never blocking
 * the event loop. Failures carry the engine's status and message ({@link EngineError}).
 */
final class DockerEngine {

  /** The API version Okapi 6.1.5 speaks; Docker engines serve it and later ones. */
  static final String API_VERSION = "v1.35";

  /**
   * Longest silence of the engine on one call (a pull reports progress as it goes); the log that is
   * followed has none.
   */
  static final long IDLE_TIMEOUT_MILLIS = 5 * 60 * 1000;

  private final HttpClient client;
  private final SocketAddress socket;
  private final String host;
  private final int port;

  /** The engine answered with a status other than the one expected. */
  static final class EngineError extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int status;

    EngineError(String what, int status, String body) {
      super(what + " HTTP error " + status + "\n" + body, null, false, false);
      this.status = status;
    }

    int status() {
      return status;
    }
  }

  /**
   * @param dockerUrl {@code unix:///path}, {@code tcp://host:port} or {@code http://host:port}
   */
  DockerEngine(Vertx vertx, String dockerUrl) {
    this.client = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(false));
    if (dockerUrl.startsWith("unix://")) {
      this.socket = SocketAddress.domainSocketAddress(dockerUrl.substring("unix://".length()));
      this.host = "localhost";
      this.port = 80;
    } else {
      URI uri = URI.create(dockerUrl.replaceFirst("^tcp://", "http://"));
      this.socket = null;
      this.host = uri.getHost();
      this.port = uri.getPort() > 0 ? uri.getPort() : 80;
    }
  }

  /**
   * @return the image's description ({@code GET /images/{image}/json}); fails with the engine's 404
   *     for an image it does not have
   */
  Future<JsonObject> inspectImage(String image) {
    return call(HttpMethod.GET, "/images/" + image + "/json", null, null)
        .compose(r -> json(r, 200, "getImage"));
  }

  /**
   * Pulls an image ({@code POST /images/create?fromImage=}).
   *
   * @param auth Docker's registry credentials; null or empty for none
   */
  Future<Void> pull(String image, JsonObject auth) {
    MultiMap headers = MultiMap.caseInsensitiveMultiMap();
    if (auth != null && !auth.isEmpty()) {
      headers.add(
          "X-Registry-Auth",
          Base64.getEncoder().encodeToString(auth.encode().getBytes(StandardCharsets.UTF_8)));
    }
    return call(HttpMethod.POST, "/images/create?fromImage=" + encode(image), headers, "")
        .compose(r -> json(r, 200, "pullImage"))
        .mapEmpty();
  }

  /**
   * @return the id of the container created from {@code doc} ({@code POST /containers/create})
   */
  Future<String> create(JsonObject doc) {
    MultiMap headers = MultiMap.caseInsensitiveMultiMap().add("Content-Type", "application/json");
    return call(HttpMethod.POST, "/containers/create", headers, doc.encode())
        .compose(r -> json(r, 201, "createContainer"))
        .map(created -> created.getString("Id"));
  }

  Future<Void> start(String container) {
    return noContent(HttpMethod.POST, "/containers/" + container + "/start", "startContainer");
  }

  Future<Void> stop(String container) {
    return noContent(HttpMethod.POST, "/containers/" + container + "/stop", "stopContainer");
  }

  Future<Void> remove(String container) {
    return noContent(
        HttpMethod.DELETE, "/containers/" + container + "?force=true", "deleteContainer");
  }

  /**
   * Follows the container's output ({@code GET /containers/{id}/logs?follow=1}): each line of it to
   * {@code lines}, until the container ends.
   *
   * @return succeeds once following; {@code ended} is told when the output ends
   */
  Future<Void> follow(String container, Consumer<String> lines, Runnable ended) {
    return call(
            HttpMethod.GET,
            "/containers/" + container + "/logs?stderr=1&stdout=1&follow=1",
            null,
            null,
            0)
        .compose(
            response -> {
              if (response.statusCode() != 200) {
                return response
                    .body()
                    .compose(
                        body ->
                            Future.failedFuture(
                                new EngineError(
                                    "getContainerLog", response.statusCode(), body.toString())));
              }
              LogFrames frames = new LogFrames(lines);
              response.handler(frames::append);
              response.endHandler(v -> ended.run());
              response.exceptionHandler(e -> ended.run());
              return Future.succeededFuture();
            });
  }

  Future<Void> close() {
    return client.close();
  }

  private Future<Void> noContent(HttpMethod method, String path, String what) {
    return call(method, path, null, null)
        .compose(
            r ->
                r.body()
                    .compose(
                        body ->
                            r.statusCode() == 204
                                ? Future.succeededFuture()
                                : Future.failedFuture(
                                    new EngineError(what, r.statusCode(), body.toString()))));
  }

  private Future<HttpClientResponse> call(
      HttpMethod method, String path, MultiMap headers, String body) {
    return call(method, path, headers, body, IDLE_TIMEOUT_MILLIS);
  }

  private Future<HttpClientResponse> call(
      HttpMethod method, String path, MultiMap headers, String body, long idleTimeout) {
    RequestOptions options =
        new RequestOptions()
            .setMethod(method)
            .setHost(host)
            .setPort(port)
            .setIdleTimeout(idleTimeout)
            .setURI("/" + API_VERSION + path);
    if (socket != null) {
      options.setServer(socket);
    }
    if (headers != null) {
      options.setHeaders(headers);
    }
    return Future.succeededFuture(options)
        .compose(client::request)
        .compose(request -> body == null ? request.send() : request.send(body));
  }

  /**
   * The first JSON object of the answer (the engine streams one per line while it pulls), if the
   * status is {@code expected} (or 200).
   */
  private static Future<JsonObject> json(HttpClientResponse response, int expected, String what) {
    return response
        .body()
        .compose(
            body -> {
              int status = response.statusCode();
              if (status != expected && status != 200) {
                return Future.failedFuture(new EngineError(what, status, body.toString()));
              }
              String text = body.toString();
              int line = text.indexOf('\n');
              try {
                return Future.succeededFuture(
                    new JsonObject(line < 0 ? text : text.substring(0, line)));
              } catch (DecodeException e) {
                return Future.failedFuture(new EngineError(what, status, text));
              }
            });
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  /**
   * Docker's multiplexed log stream: frames of an 8-byte header (stream, 3 zero bytes, a 32-bit
   * big-endian length) and that many bytes of output, split here into lines. A container with a
   * terminal sends plain output instead, taken as it is.
   */
  static final class LogFrames {
    private final Consumer<String> lines;
    private Buffer pending = Buffer.buffer();
    private final StringBuilder line = new StringBuilder();
    private Boolean framed;

    LogFrames(Consumer<String> lines) {
      this.lines = lines;
    }

    void append(Buffer data) {
      pending.appendBuffer(data);
      if (framed == null && pending.length() > 0) {
        framed = pending.getByte(0) <= 2;
      }
      if (!Boolean.TRUE.equals(framed)) {
        text(pending.toString(StandardCharsets.UTF_8));
        pending = Buffer.buffer();
        return;
      }
      int at = 0;
      while (pending.length() - at >= 8) {
        int size = pending.getInt(at + 4);
        if (pending.length() - at - 8 < size) {
          break;
        }
        text(pending.getString(at + 8, at + 8 + size, "UTF-8"));
        at += 8 + size;
      }
      pending = pending.getBuffer(at, pending.length());
    }

    private void text(String output) {
      for (int i = 0; i < output.length(); i++) {
        char c = output.charAt(i);
        if (c == '\n') {
          lines.accept(line.toString());
          line.setLength(0);
        } else if (c != '\r') {
          line.append(c);
        }
      }
    }
  }
}
