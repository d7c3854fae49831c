package io.okapigw.it.eureka;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.RequestOptions;
import java.net.URI;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * A reverse proxy in front of Keycloak that counts what one side (the sidecars, or our gateway)
 * asks it, by kind: {@code decision} (a UMA ticket grant: one permission evaluated), {@code
 * introspect}, {@code token} (other grants: service and admin tokens), {@code keys} (JWKS), {@code
 * admin} (the admin REST API) and {@code other}. It sends Keycloak's own host as {@code Host}, so
 * the tokens it passes carry Keycloak's issuer whichever side asked.
 */
final class KeycloakCounter implements AutoCloseable {

  static final String DECISION = "decision";

  private final HttpServer server;
  private final HttpClient client;
  private final URI keycloak;
  private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

  private KeycloakCounter(Vertx vertx, String keycloak) {
    this.keycloak = URI.create(keycloak);
    this.client = vertx.createHttpClient();
    this.server = vertx.createHttpServer().requestHandler(this::forward);
  }

  static KeycloakCounter start(Vertx vertx, String keycloak) {
    KeycloakCounter counter = new KeycloakCounter(vertx, keycloak);
    counter.server.listen(0, "127.0.0.1").await();
    return counter;
  }

  String url() {
    return "http://127.0.0.1:" + server.actualPort();
  }

  /**
   * @return how many calls of that kind passed so far
   */
  long count(String kind) {
    LongAdder n = counts.get(kind);
    return n == null ? 0 : n.sum();
  }

  /**
   * @return every kind's count so far
   */
  Map<String, Long> counts() {
    Map<String, Long> all = new TreeMap<>();
    counts.forEach((k, v) -> all.put(k, v.sum()));
    return all;
  }

  long total() {
    return counts.values().stream().mapToLong(LongAdder::sum).sum();
  }

  private void forward(HttpServerRequest req) {
    req.body()
        .compose(
            body -> {
              counts.computeIfAbsent(kind(req.path(), body), k -> new LongAdder()).increment();
              RequestOptions options =
                  new RequestOptions()
                      .setMethod(req.method())
                      .setHost(keycloak.getHost())
                      .setPort(keycloak.getPort())
                      .setURI(req.uri());
              req.headers()
                  .forEach(
                      h -> {
                        if (!"Host".equalsIgnoreCase(h.getKey())
                            && !"Content-Length".equalsIgnoreCase(h.getKey())) {
                          options.addHeader(h.getKey(), h.getValue());
                        }
                      });
              options.putHeader("Host", keycloak.getHost() + ":" + keycloak.getPort());
              return client
                  .request(options)
                  .compose(r -> r.send(body))
                  .compose(
                      answer ->
                          answer
                              .body()
                              .compose(
                                  b -> {
                                    req.response().setStatusCode(answer.statusCode());
                                    answer
                                        .headers()
                                        .forEach(
                                            h -> {
                                              if (!"Content-Length".equalsIgnoreCase(h.getKey())
                                                  && !"Transfer-Encoding"
                                                      .equalsIgnoreCase(h.getKey())) {
                                                req.response().putHeader(h.getKey(), h.getValue());
                                              }
                                            });
                                    return req.response().end(b);
                                  }));
            })
        .onFailure(
            e -> {
              if (!req.response().ended()) {
                req.response().setStatusCode(502).end("Keycloak unreachable: " + e.getMessage());
              }
            });
  }

  private static String kind(String path, Buffer body) {
    if (path.startsWith("/admin/")) {
      return "admin";
    }
    if (path.endsWith("/protocol/openid-connect/certs")) {
      return "keys";
    }
    if (path.endsWith("/token/introspect")) {
      return "introspect";
    }
    if (path.endsWith("/protocol/openid-connect/token")) {
      return body.toString().contains("uma-ticket") ? DECISION : "token";
    }
    return "other";
  }

  @Override
  public void close() {
    server.close().await();
    client.close().await();
  }
}
