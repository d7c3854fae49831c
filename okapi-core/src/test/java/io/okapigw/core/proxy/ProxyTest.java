package io.okapigw.core.proxy;

import static io.okapigw.core.testing.GatewayFixture.handler;
import static io.okapigw.core.testing.GatewayFixture.module;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import io.okapigw.config.Settings;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.OversizedHeaders;
import io.okapigw.core.testing.TestModule;
import io.okapigw.core.testing.TestModule.Recorded;
import io.okapigw.core.testing.UnsignedJwt;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class ProxyTest {

  @RegisterExtension final GatewayFixture gw = new GatewayFixture();
  private TestModule echo;

  @BeforeEach
  void start() {
    gw.createTenant("diku");
    echo =
        TestModule.start(
            gw.vertx(),
            router ->
                router
                    .route("/echo*")
                    .handler(
                        ctx ->
                            ctx.request()
                                .body()
                                .onSuccess(
                                    body ->
                                        ctx.response()
                                            .putHeader("X-Module-Header", "from-module")
                                            .putHeader("Keep-Alive", "timeout=5")
                                            .putHeader("X-Okapi-Module-Tokens", "{\"leak\":\"t\"}")
                                            .end("got " + body.length() + " bytes"))));
    gw.install("diku", module("mod-echo-1.0.0", "echo", handler("*", "/echo*")), echo.url());
  }

  @Test
  void forward_setsOkapiHeadersDropsHopByHopAndKeepsOthers() {
    gw.tenant("diku")
        .header("X-Custom", "kept")
        .header("Connection", "keep-alive, X-Hop")
        .header("X-Hop", "dropped")
        .body("hello")
        .post("/echo/x?q=1")
        .then()
        .statusCode(200)
        .body(equalTo("got 5 bytes"))
        .header("X-Module-Header", "from-module")
        .header("Keep-Alive", nullValue())
        .header("X-Okapi-Module-Tokens", nullValue());
    Recorded r = echo.take();
    assertThat(r.uri()).isEqualTo("/echo/x?q=1");
    assertThat(r.header("X-Okapi-Tenant")).isEqualTo("diku");
    assertThat(r.header("X-Okapi-Url")).isEqualTo(gw.url());
    assertThat(r.header("X-Okapi-Request-Id")).matches("\\d{6}/echo~[A-Za-z0-9_-]{32}");
    assertThat(r.header("X-Custom")).isEqualTo("kept");
    assertThat(r.header("X-Hop")).isNull();
  }

  @Test
  void forward_bearerToken_becomesXOkapiToken() {
    gw.tenant("diku")
        .header("Authorization", "Bearer abc.def.ghi")
        .get("/echo")
        .then()
        .statusCode(200);
    Recorded r = echo.take();
    assertThat(r.header("X-Okapi-Token")).isEqualTo("abc.def.ghi");
    assertThat(r.header("Authorization")).isNull();
  }

  @Test
  void forward_clientPermissionsHeader_neverReachesModule() {
    gw.tenant("diku")
        .header("X-Okapi-Permissions", "[\"all\"]")
        .header("X-Okapi-Module-Permissions", "{}")
        .get("/echo")
        .then()
        .statusCode(200);
    Recorded r = echo.take();
    assertThat(r.header("X-Okapi-Permissions")).isNull();
    assertThat(r.header("X-Okapi-Module-Permissions")).isNull();
  }

  @Test
  void identity_tenantFromTokenClaimWhenNoHeader() {
    gw.request()
        .header("X-Okapi-Token", UnsignedJwt.of("diku", "u"))
        .get("/echo")
        .then()
        .statusCode(200);
    assertThat(echo.take().header("X-Okapi-Tenant")).isEqualTo("diku");
  }

  @Test
  void identity_badInput_4xxAndModuleNotCalled() throws Exception {
    gw.tenant("diku")
        .header("X-Okapi-Token", "a.b.c")
        .header("Authorization", "Bearer x.y.z")
        .get("/echo")
        .then()
        .statusCode(400)
        .body(containsString("different tokens"));
    gw.request()
        .get("/echo")
        .then()
        .statusCode(404)
        .body(containsString("no module serves GET /echo for tenant supertenant"));
    gw.tenant("nosuch")
        .get("/echo")
        .then()
        .statusCode(400)
        .body(containsString("unknown tenant nosuch"));
    gw.tenant("diku")
        .get("/nothing/here")
        .then()
        .statusCode(404)
        .body(containsString("no module serves GET /nothing/here for tenant diku"));
    assertThat(OversizedHeaders.status(gw.gateway().port(), "/echo", "diku", 40_000))
        .isEqualTo(431);
    assertThat(echo.pending()).isZero();
  }

  @Test
  void moduleToModule_callThroughOkapiUrl_appendsRequestId() {
    TestModule b =
        TestModule.start(
            gw.vertx(), router -> router.get("/b").handler(ctx -> ctx.response().end("from b")));
    HttpClientAgent client = gw.vertx().createHttpClient();
    TestModule a =
        TestModule.start(
            gw.vertx(),
            router ->
                router
                    .get("/a")
                    .handler(
                        ctx -> {
                          var in = ctx.request();
                          client
                              .request(
                                  new RequestOptions()
                                      .setMethod(HttpMethod.GET)
                                      .setAbsoluteURI(in.getHeader("X-Okapi-Url") + "/b")
                                      .putHeader("X-Okapi-Tenant", in.getHeader("X-Okapi-Tenant"))
                                      .putHeader(
                                          "X-Okapi-Request-Id", in.getHeader("X-Okapi-Request-Id")))
                              .compose(req -> req.send())
                              .compose(HttpClientResponse::body)
                              .onSuccess(body -> ctx.response().end("a+" + body))
                              .onFailure(ctx::fail);
                        }));
    gw.install("diku", module("mod-b-1.0.0", "b", handler("GET", "/b")), b.url());
    gw.install("diku", module("mod-a-1.0.0", "a", handler("GET", "/a")), a.url());
    gw.tenant("diku").get("/a").then().statusCode(200).body(equalTo("a+from b"));
    String idA = a.take().header("X-Okapi-Request-Id");
    String idB = b.take().header("X-Okapi-Request-Id");
    assertThat(idA).matches("\\d{6}/a~[A-Za-z0-9_-]{32}");
    assertThat(idB).matches(java.util.regex.Pattern.quote(idA) + ";\\d{6}/b~[A-Za-z0-9_-]{32}");
  }

  /**
   * Both instances serve: the second, never measured, is chosen next (strict round-robin among
   * instances that answer alike is the balancer's, on its fake clock: BalancerTest; here their
   * latencies are what a busy machine makes them).
   */
  @Test
  void instances_bothServe() {
    TestModule second =
        TestModule.start(
            gw.vertx(),
            router -> router.route("/echo*").handler(ctx -> ctx.response().end("second")));
    gw.deploy("mod-echo-1.0.0", second.url());
    for (int i = 0; i < 4; i++) {
      gw.tenant("diku").get("/echo").then().statusCode(200);
    }
    assertThat(echo.pending() + second.pending()).isEqualTo(4);
    assertThat(echo.pending()).isPositive();
    assertThat(second.pending()).isPositive();
  }

  @Test
  void upstream_refusedOrMissing_502NamingModule() {
    gw.install(
        "diku", module("mod-gone-1.0.0", "gone", handler("GET", "/gone")), "http://127.0.0.1:1");
    gw.tenant("diku").get("/gone").then().statusCode(502).body(containsString("mod-gone-1.0.0"));
    gw.addModule(module("mod-none-1.0.0", "none", handler("GET", "/none")));
    gw.enable("diku", "mod-none-1.0.0");
    gw.tenant("diku")
        .get("/none")
        .then()
        .statusCode(502)
        .body(containsString("mod-none-1.0.0 has no running instance"));
  }

  @Test
  void moduleCalls_countedByKindAndOutcome_withoutModuleOrPath() {
    gw.install(
        "diku", module("mod-gone-1.0.0", "gone", handler("GET", "/gone")), "http://127.0.0.1:1");
    gw.tenant("diku").body("x").post("/echo/a").then().statusCode(200);
    gw.tenant("diku").get("/gone").then().statusCode(502);
    String metrics = gw.request().get("/_/metrics").then().statusCode(200).extract().asString();
    assertThat(metrics)
        .containsPattern(
            "okapi_module_calls_seconds_count\\{kind=\"handler\",outcome=\"2xx\"} [1-9]")
        .containsPattern(
            "okapi_module_calls_seconds_count\\{kind=\"handler\",outcome=\"unreachable\"} 1")
        .doesNotContain("mod-gone")
        .doesNotContain("/echo");
  }

  @Test
  void upstream_silent_504NamingModule() {
    try (GatewayFixture quick =
        new GatewayFixture(
            GatewayOptions.from(Settings.of(Map.of("proxy.idle-timeout", "300ms"))))) {
      TestModule silent =
          TestModule.start(quick.vertx(), router -> router.get("/slow").handler(ctx -> {}));
      quick.createTenant("diku");
      quick.install(
          "diku", module("mod-slow-1.0.0", "slow", handler("GET", "/slow")), silent.url());
      quick
          .tenant("diku")
          .get("/slow")
          .then()
          .statusCode(504)
          .body(containsString("mod-slow-1.0.0"));
    }
  }

  @Test
  void routingTable_rebuiltOnChange_disabledModuleNoLongerRouted() {
    gw.tenant("diku").get("/echo").then().statusCode(200);
    gw.request().delete("/_/proxy/tenants/diku/modules/mod-echo-1.0.0").then().statusCode(204);
    gw.tenant("diku").get("/echo").then().statusCode(404);
  }
}
