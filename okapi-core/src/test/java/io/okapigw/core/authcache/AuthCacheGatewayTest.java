package io.okapigw.core.authcache;

import static io.okapigw.core.testing.GatewayFixture.authModule;
import static io.okapigw.core.testing.GatewayFixture.handler;
import static io.okapigw.core.testing.GatewayFixture.module;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.lessThan;

import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.TestModule;
import io.okapigw.testsupport.Await;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The auth stage with the cache, against a test auth filter that counts its calls. */
class AuthCacheGatewayTest {

  @RegisterExtension final GatewayFixture gw = new GatewayFixture();
  private final AtomicInteger authCalls = new AtomicInteger();

  /** When set, the auth filter holds its answers until this completes. */
  private final AtomicReference<Promise<Void>> gate = new AtomicReference<>();

  private TestModule items;

  @BeforeEach
  void start() {
    TestModule auth =
        TestModule.start(
            gw.vertx(),
            router ->
                router
                    .route()
                    .handler(
                        ctx -> {
                          authCalls.incrementAndGet();
                          String token = ctx.request().getHeader("X-Okapi-Token");
                          Promise<Void> hold = gate.get();
                          (hold == null ? Future.<Void>succeededFuture() : hold.future())
                              .onComplete(
                                  v -> {
                                    if (token == null || token.startsWith("bad")) {
                                      ctx.response()
                                          .setStatusCode(token == null ? 401 : 500)
                                          .end("no");
                                      return;
                                    }
                                    ctx.response()
                                        .setStatusCode(202)
                                        .putHeader("X-Okapi-User-Id", "user-of-" + token)
                                        .putHeader("X-Okapi-Permissions", "[\"p\"]")
                                        .end();
                                  });
                        }));
    items =
        TestModule.start(
            gw.vertx(),
            router ->
                router
                    .route()
                    .handler(
                        ctx ->
                            ctx.response()
                                .end(String.valueOf(ctx.request().getHeader("X-Okapi-User-Id")))));
    gw.addModule(authModule("mod-auth-1.0.0"));
    gw.deploy("mod-auth-1.0.0", auth.url());
    gw.addModule(module("mod-items-1.0.0", "items", handler("GET", "/items/{id}", "items.get")));
    gw.deploy("mod-items-1.0.0", items.url());
    for (String tenant : List.of("diku", "other")) {
      gw.createTenant(tenant);
      gw.enable(tenant, "mod-auth-1.0.0");
      gw.enable(tenant, "mod-items-1.0.0");
    }
  }

  private String get(String tenant, String token, String path) {
    return gw.tenant(tenant)
        .header("X-Okapi-Token", token)
        .get(path)
        .then()
        .statusCode(200)
        .extract()
        .asString();
  }

  @Test
  void sameKey_secondRequestMakesNoAuthCall_samePatternSharesEntry() {
    assertThat(get("diku", "t1", "/items/1")).isEqualTo("user-of-t1");
    assertThat(get("diku", "t1", "/items/2")).isEqualTo("user-of-t1");
    assertThat(authCalls.get()).isEqualTo(1);
    gw.request()
        .get("/_/proxy/auth-cache")
        .then()
        .statusCode(200)
        .body("hits", equalTo(1))
        .body("misses", equalTo(1))
        .body("authCalls", equalTo(1))
        .body("size", equalTo(1))
        .body("bytesPerEntry", allOf(greaterThan(0), lessThan(1024)));
  }

  @Test
  void differentTokenOrTenant_neverSharesAnEntry() {
    assertThat(get("diku", "alice", "/items/1")).isEqualTo("user-of-alice");
    assertThat(get("diku", "bob", "/items/1")).isEqualTo("user-of-bob");
    assertThat(get("other", "alice", "/items/1")).isEqualTo("user-of-alice");
    assertThat(authCalls.get()).isEqualTo(3);
  }

  @Test
  void concurrentFirstRequestsOnOneKey_exactlyOneAuthCall() throws Exception {
    Promise<Void> release = Promise.promise();
    gate.set(release);
    HttpClientAgent client =
        gw.vertx()
            .createHttpClient(
                new io.vertx.core.http.HttpClientOptions(),
                new io.vertx.core.http.PoolOptions().setHttp1MaxSize(100));
    List<Future<Integer>> responses = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      responses.add(
          client
              .request(
                  new RequestOptions()
                      .setMethod(HttpMethod.GET)
                      .setAbsoluteURI(gw.url() + "/items/" + i)
                      .putHeader("X-Okapi-Tenant", "diku")
                      .putHeader("X-Okapi-Token", "shared"))
              .compose(HttpClientRequest::send)
              .compose(r -> r.end().map(r.statusCode())));
    }
    awaitLookups(100);
    gw.vertx().runOnContext(v -> release.complete());
    List<Integer> statuses = Future.all(responses).await(1, TimeUnit.MINUTES).list();
    assertThat(statuses).hasSize(100).containsOnly(200);
    assertThat(authCalls.get()).isEqualTo(1);
  }

  /** Waits until the cache has seen {@code n} lookups: every request is past the cache. */
  private void awaitLookups(int n) {
    Await.until(() -> lookups() >= n, "all requests reached the cache");
  }

  private int lookups() {
    var stats = gw.request().get("/_/proxy/auth-cache").jsonPath();
    return stats.getInt("hits") + stats.getInt("misses");
  }

  @Test
  void errorAndDenial_notCachedByDefault() {
    gw.tenant("diku").header("X-Okapi-Token", "bad1").get("/items/1").then().statusCode(503);
    gw.tenant("diku").header("X-Okapi-Token", "bad1").get("/items/1").then().statusCode(503);
    gw.tenant("diku").get("/items/1").then().statusCode(401);
    gw.tenant("diku").get("/items/1").then().statusCode(401);
    assertThat(authCalls.get()).isEqualTo(4);
  }

  @Test
  void invalidate_byUserTokenTenantOrAll_nextRequestAsksAgain() {
    get("diku", "t1", "/items/1");
    gw.request()
        .body("{\"tenant\":\"diku\",\"userId\":\"user-of-t1\"}")
        .post("/_/proxy/auth-cache/invalidate")
        .then()
        .statusCode(204)
        .header("X-Invalidated-Entries", "1")
        .header("X-Invalidated-Nodes", "1");
    get("diku", "t1", "/items/1");
    gw.request()
        .body("{\"token\":\"t1\"}")
        .post("/_/proxy/auth-cache/invalidate")
        .then()
        .statusCode(204);
    get("diku", "t1", "/items/1");
    gw.request()
        .body("{\"tenant\":\"diku\"}")
        .post("/_/proxy/auth-cache/invalidate")
        .then()
        .statusCode(204);
    get("diku", "t1", "/items/1");
    gw.request().post("/_/proxy/auth-cache/invalidate").then().statusCode(204);
    get("diku", "t1", "/items/1");
    assertThat(authCalls.get()).isEqualTo(5);
  }

  @Test
  void enableThroughTheRegistryApi_dropsThatTenantsCachedDecisions() {
    get("diku", "t1", "/items/1");
    get("other", "t1", "/items/1");
    gw.addModule(module("mod-notes-1.0.0", "notes", handler("GET", "/notes", "notes.get")));

    gw.gateway().registry().tenantModules().commit("diku", null, "mod-notes-1.0.0").await();

    gw.request().get("/_/proxy/auth-cache").then().statusCode(200).body("size", equalTo(1));
    get("other", "t1", "/items/1");
    assertThat(authCalls.get()).isEqualTo(2);
    get("diku", "t1", "/items/1");
    assertThat(authCalls.get()).isEqualTo(3);
  }

  @Test
  void disableThroughTheRegistryApi_dropsThatTenantsCachedDecisions() {
    gw.addModule(module("mod-notes-1.0.0", "notes", handler("GET", "/notes", "notes.get")));
    gw.enable("diku", "mod-notes-1.0.0");
    get("diku", "t1", "/items/1");
    get("other", "t1", "/items/1");

    gw.gateway().registry().tenantModules().commit("diku", "mod-notes-1.0.0", null).await();

    gw.request().get("/_/proxy/auth-cache").then().statusCode(200).body("size", equalTo(1));
    get("diku", "t1", "/items/1");
    assertThat(authCalls.get()).isEqualTo(3);
  }

  @Test
  void invalidate_badInput_400AndCacheKept() {
    get("diku", "t1", "/items/1");
    gw.request()
        .body("{\"userId\":\"u\"}")
        .post("/_/proxy/auth-cache/invalidate")
        .then()
        .statusCode(400)
        .body(containsString("userId needs a tenant"));
    gw.request()
        .body("{\"tenant\":5}")
        .post("/_/proxy/auth-cache/invalidate")
        .then()
        .statusCode(400)
        .body(containsString("tenant must be a non-empty string"));
    gw.request()
        .body("{\"user\":\"u\"}")
        .post("/_/proxy/auth-cache/invalidate")
        .then()
        .statusCode(400)
        .body(containsString("unknown field 'user'"));
    gw.request()
        .body("{nope")
        .post("/_/proxy/auth-cache/invalidate")
        .then()
        .statusCode(400)
        .body(containsString("malformed JSON"));
    get("diku", "t1", "/items/1");
    assertThat(authCalls.get()).isEqualTo(1);
  }

  @Test
  void enablingAModule_dropsTheTenantsDecisions() {
    get("diku", "t1", "/items/1");
    gw.install("diku", module("mod-more-1.0.0", "more", handler("GET", "/more")), items.url());
    get("diku", "t1", "/items/1");
    assertThat(authCalls.get()).isEqualTo(2);
  }

  @Test
  void metrics_authCallsAndRequestsTagged_neverTokensOrUserIds() {
    get("diku", "secret-token-123", "/items/1");
    get("diku", "secret-token-123", "/items/1");
    gw.tenant("diku").header("X-Okapi-Token", "bad").get("/items/1").then().statusCode(503);
    String metrics =
        gw.request()
            .get("/_/metrics")
            .then()
            .statusCode(200)
            .contentType(containsString("text/plain"))
            .extract()
            .asString();
    assertThat(metrics)
        .contains("okapi_auth_calls_total{outcome=\"granted\",tenant=\"diku\"} 1.0")
        .contains("okapi_auth_calls_total{outcome=\"error\",tenant=\"diku\"} 1.0")
        .contains("okapi_requests_seconds_count{method=\"GET\",status=\"2xx\",tenant=\"diku\"} 2")
        .contains("cache=\"auth\"")
        .doesNotContain("secret-token-123")
        .doesNotContain("user-of-")
        .doesNotContain("/items/1");
  }
}
