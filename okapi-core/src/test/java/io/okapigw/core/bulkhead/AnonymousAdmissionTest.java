package io.okapigw.core.bulkhead;

import static io.okapigw.core.testing.GatewayFixture.authModule;
import static io.okapigw.core.testing.GatewayFixture.handler;
import static io.okapigw.core.testing.GatewayFixture.module;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.config.Settings;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.TestModule;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Admission that an anonymous client cannot turn against a tenant: a tenant's bulkhead counts a
 * request only once its auth module has granted it, and requests granted to no user (anonymous:
 * tokenless calls of public routes) only within their share of the tenant's limits. Tenant {@code
 * t2} has a rate of 10 requests a second on a clock that does not move, so every count is exact:
 * its auth module refuses a request without a token 401 unless the route is {@code /public}, and
 * grants the token {@code good} as user {@code u1}.
 */
class AnonymousAdmissionTest {

  private GatewayFixture gw;

  private void start(Map<String, String> settings) {
    gw = new GatewayFixture(GatewayOptions.from(Settings.of(settings)), () -> 1_000_000_000L);
    gw.createTenant("t2");
    TestModule auth =
        TestModule.start(
            gw.vertx(),
            router ->
                router
                    .route()
                    .handler(
                        ctx -> {
                          String token = ctx.request().getHeader("X-Okapi-Token");
                          if ("good".equals(token)) {
                            ctx.response().setStatusCode(202).putHeader("X-Okapi-User-Id", "u1");
                            ctx.response().end();
                          } else if (token == null && ctx.request().path().equals("/public")) {
                            ctx.response().setStatusCode(202).end();
                          } else {
                            ctx.response().setStatusCode(401).end("token missing");
                          }
                        }));
    TestModule items =
        TestModule.start(gw.vertx(), router -> router.route().handler(ctx -> ctx.end("ok")));
    gw.install("t2", authModule("mod-auth-1.0.0"), auth.url());
    gw.install(
        "t2",
        module("mod-items-1.0.0", "items", handler("GET", "/items"), handler("GET", "/public")),
        items.url());
  }

  @AfterEach
  void stop() {
    gw.close();
  }

  private int get(String path, String token) {
    var request = gw.tenant("t2");
    if (token != null) {
      request.header("X-Okapi-Token", token);
    }
    return request.get(path).statusCode();
  }

  private List<Integer> flood(String path, int n) {
    List<Integer> statuses = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      statuses.add(get(path, null));
    }
    return statuses;
  }

  @Test
  void tokenlessFlood_refusedByTheAuthModule_leavesTheTenantsUsersAdmitted() {
    start(Map.of("bulkhead.tenant-rate", "t2=10"));

    assertThat(flood("/items", 30)).containsOnly(401);
    for (int i = 0; i < 30; i++) {
      assertThat(get("/items", "forged-" + i)).isEqualTo(401);
    }

    assertThat(get("/items", "good")).isEqualTo(200);
  }

  @Test
  void anonymousFloodOfAPublicRoute_heldToItsShare_usersStillAdmitted() {
    start(Map.of("bulkhead.tenant-rate", "t2=10"));

    List<Integer> statuses = flood("/public", 30);

    assertThat(statuses.stream().filter(s -> s == 200)).hasSize(3);
    assertThat(statuses.stream().filter(s -> s == 429)).hasSize(27);
    for (int i = 0; i < 7; i++) {
      assertThat(get("/items", "good")).as("user request %d", i).isEqualTo(200);
    }
    assertThat(get("/items", "good")).as("past the tenant's own rate").isEqualTo(429);
    assertThat(gw.tenant("t2").get("/public").asString())
        .isEqualTo(
            "the anonymous requests of tenant t2 (granted to no user) are past their 3 requests a"
                + " second, their share of its limit on this node (bulkhead.anonymous-share of"
                + " bulkhead.rate); retry in 1 s");
    assertThat(gw.request().get("/_/metrics").asString())
        .contains(
            "okapi_tenant_requests_rejected_total{limit=\"anonymous-rate\",tenant=\"t2\"} 28.0")
        .contains("okapi_tenant_requests_rejected_total{limit=\"rate\",tenant=\"t2\"} 1.0");
  }

  @Test
  void anonymousShareOfAHundred_anonymousRequestsUseTheWholeLimit() {
    start(Map.of("bulkhead.tenant-rate", "t2=10", "bulkhead.anonymous-share", "100"));

    assertThat(flood("/public", 12).stream().filter(s -> s == 200)).hasSize(10);
  }
}
