package io.okapigw.it;

import static io.restassured.RestAssured.given;

import io.okapigw.authtoken.AuthtokenOptions;
import io.okapigw.authtoken.AuthtokenVerticle;
import io.okapigw.authtoken.gateway.InvalidationOptions;
import io.okapigw.authtoken.password.PasswordOptions;
import io.okapigw.authtoken.users.BootstrapUser;
import io.okapigw.cache.AuthCacheOptions;
import io.okapigw.core.Gateway;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.folio.register.AuthtokenDescriptor;
import io.okapigw.testsupport.Descriptors;
import io.restassured.specification.RequestSpecification;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * The real gateway and the real authtoken module in this JVM on one fake time source, plus small
 * modules: {@code GET /items/{id}} (needs items.item.get; answers the user id it was given) and a
 * chain {@code GET /chain} that calls {@code /b} and {@code /c} through the gateway with its module
 * token.
 */
final class Library implements AutoCloseable {

  static final String PASSWORD = "secret";

  final FakeTime time = new FakeTime();
  final Vertx vertx = Vertx.vertx();
  final Gateway gateway;
  private final AuthtokenVerticle authtoken;
  private final String authtokenDeployment;
  private final Path dir;

  Library(AuthCacheOptions cache) throws IOException {
    gateway =
        Gateway.start(vertx, GatewayOptions.defaults(0).withInstances(1).withAuthCache(cache), time)
            .await();
    dir = Files.createTempDirectory("okapigw-it-authtoken");
    List<String> perms = List.of("items.item.get", "chain.get");
    authtoken =
        new AuthtokenVerticle(
            AuthtokenOptions.onLoopback(dir)
                .withInvalidation(InvalidationOptions.to(gateway.okapiUrl()))
                .withPasswords(PasswordOptions.cheapest())
                .withBootstrap(
                    List.of(
                        new BootstrapUser("diku", "alice", PASSWORD, perms),
                        new BootstrapUser("diku", "bob", PASSWORD, perms),
                        new BootstrapUser("other", "carol", PASSWORD, perms))),
            time.clock());
    authtokenDeployment = vertx.deployVerticle(authtoken).await();
    install();
  }

  private void install() {
    HttpServer items =
        server(req -> req.response().end(String.valueOf(req.getHeader("X-Okapi-User-Id"))));
    HttpServer leaf = server(req -> req.response().end(req.path()));
    HttpClientAgent client = vertx.createHttpClient();
    HttpServer chain =
        server(
            req ->
                callThrough(client, req, "/b")
                    .compose(b -> callThrough(client, req, "/c").map(c -> b + "+" + c))
                    .onSuccess(body -> req.response().end(body))
                    .onFailure(e -> req.response().setStatusCode(502).end(e.getMessage())));
    AdminCalls admin = AdminCalls.at(gateway.okapiUrl());
    admin.register(AuthtokenDescriptor.read(), "http://127.0.0.1:" + authtoken.actualPort());
    admin.register(
        Descriptors.module(
            "mod-items-1.0.0",
            "items",
            Descriptors.handler("GET", "/items/{id}", "items.item.get")),
        url(items));
    admin.register(
        Descriptors.module(
            "mod-leaf-1.0.0",
            "leaf",
            Descriptors.handler("GET", "/b", "b.get"),
            Descriptors.handler("GET", "/c", "c.get")),
        url(leaf));
    admin.register(
        Descriptors.module(
                "mod-chain-1.0.0",
                "chain",
                Descriptors.handler("GET", "/chain", "chain.get")
                    .put("modulePermissions", new JsonArray().add("chain.downstream")))
            .put(
                "permissionSets",
                new JsonArray()
                    .add(
                        new JsonObject()
                            .put("permissionName", "chain.downstream")
                            .put("subPermissions", new JsonArray().add("b.get").add("c.get")))),
        url(chain));
    for (String tenant : List.of("diku", "other")) {
      admin.createTenant(tenant);
      for (String id :
          List.of("mod-authtoken-1.0.0", "mod-items-1.0.0", "mod-leaf-1.0.0", "mod-chain-1.0.0")) {
        admin.enable(tenant, id);
      }
    }
  }

  private static io.vertx.core.Future<String> callThrough(
      HttpClientAgent client, io.vertx.core.http.HttpServerRequest in, String path) {
    return client
        .request(
            new RequestOptions()
                .setMethod(HttpMethod.GET)
                .setAbsoluteURI(in.getHeader("X-Okapi-Url") + path)
                .putHeader("X-Okapi-Tenant", in.getHeader("X-Okapi-Tenant"))
                .putHeader("X-Okapi-Token", in.getHeader("X-Okapi-Token"))
                .putHeader("X-Okapi-Request-Id", in.getHeader("X-Okapi-Request-Id")))
        .compose(r -> r.send())
        .compose(
            r ->
                r.body()
                    .map(
                        body -> {
                          if (r.statusCode() != 200) {
                            throw new IllegalStateException(
                                path + " answered " + r.statusCode() + ": " + body);
                          }
                          return body.toString();
                        }));
  }

  private HttpServer server(io.vertx.core.Handler<io.vertx.core.http.HttpServerRequest> h) {
    return vertx.createHttpServer().requestHandler(h).listen(0, "127.0.0.1").await();
  }

  private static String url(HttpServer server) {
    return "http://127.0.0.1:" + server.actualPort();
  }

  RequestSpecification admin() {
    return given().baseUri(gateway.okapiUrl());
  }

  /**
   * @return a request through the gateway for the tenant with the token
   */
  RequestSpecification as(String tenant, String token) {
    RequestSpecification spec =
        given().baseUri(gateway.okapiUrl()).header("X-Okapi-Tenant", tenant);
    return token == null ? spec : spec.header("X-Okapi-Token", token);
  }

  /** Logs in through the gateway. */
  String login(String tenant, String username) {
    return AdminCalls.login(gateway.okapiUrl(), tenant, username, PASSWORD);
  }

  static String userId(String tenant, String username) {
    return UUID.nameUUIDFromBytes((tenant + ":" + username).getBytes(StandardCharsets.UTF_8))
        .toString();
  }

  /** Calls the authtoken module directly (as an administrator's tool would, inside). */
  RequestSpecification authtokenDirect(String tenant) {
    return given()
        .baseUri("http://127.0.0.1:" + authtoken.actualPort())
        .header("X-Okapi-Tenant", tenant)
        .contentType("application/json");
  }

  /**
   * @return auth calls the gateway has made so far
   */
  long authCalls() {
    return admin().get("/_/proxy/auth-cache").jsonPath().getLong("authCalls");
  }

  void stopAuthModule() {
    vertx.undeploy(authtokenDeployment).await();
  }

  /**
   * @return a GET through the gateway, as a Vert.x future (for concurrent requests)
   */
  io.vertx.core.Future<Integer> getAsync(HttpClientAgent client, String token, String path) {
    return client
        .request(
            new RequestOptions()
                .setMethod(HttpMethod.GET)
                .setAbsoluteURI(gateway.okapiUrl() + path)
                .putHeader("X-Okapi-Tenant", "diku")
                .putHeader("X-Okapi-Token", token))
        .compose(r -> r.send())
        .compose(r -> r.end().map(v -> r.statusCode()));
  }

  @Override
  public void close() {
    vertx.close().await();
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
