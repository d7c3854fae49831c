package io.okapigw.core.proxy;

import static io.okapigw.core.testing.GatewayFixture.authModule;
import static io.okapigw.core.testing.GatewayFixture.handler;
import static io.okapigw.core.testing.GatewayFixture.module;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.TestModule;
import io.okapigw.core.testing.TestModule.Recorded;
import io.okapigw.core.testing.UnsignedJwt;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The client side of Okapi 6.1.5's protocol: where the token and tenant come from, which Okapi
 * headers modules get, and that no module token reaches a client. Behind an auth filter that echoes
 * the token it got as the module token of mod-echo.
 */
class ClientProtocolTest {

  private static final String ECHO = "mod-echo-1.0.0";

  @RegisterExtension final GatewayFixture gw = new GatewayFixture();
  private TestModule auth;
  private TestModule echo;

  @BeforeEach
  void start() {
    gw.createTenant("diku");
    auth =
        TestModule.start(
            gw.vertx(),
            router ->
                router
                    .route()
                    .handler(
                        ctx -> {
                          String token = ctx.request().getHeader("X-Okapi-Token");
                          ctx.response()
                              .setStatusCode(202)
                              .putHeader(
                                  "X-Okapi-Module-Tokens",
                                  new JsonObject()
                                      .put(ECHO, "module-token-for:" + token)
                                      .put("_", "" + token)
                                      .encode())
                              .end();
                        }));
    echo =
        TestModule.start(
            gw.vertx(),
            router ->
                router
                    .route()
                    .handler(
                        ctx -> {
                          String echoToken = ctx.request().getParam("echo");
                          if (echoToken != null) {
                            ctx.response()
                                .putHeader(
                                    "X-Okapi-Token",
                                    "mine".equals(echoToken)
                                        ? "new-login-token"
                                        : ctx.request().getHeader("X-Okapi-Token"));
                          }
                          ctx.response().end("ok");
                        }));
    gw.install("diku", authModule("mod-auth-1.0.0"), auth.url());
    gw.install("diku", module(ECHO, "echo", handler("*", "/echo*")), echo.url());
  }

  private String tokenAuthGot() {
    return auth.take().header("X-Okapi-Token");
  }

  @Test
  void token_fromFolioAccessTokenCookie_reachesAuthAndCookieIsKept() {
    gw.tenant("diku")
        .header("Cookie", "a=b; folioAccessToken=cookie-token; c=d")
        .get("/echo")
        .then()
        .statusCode(200);
    assertThat(tokenAuthGot()).isEqualTo("cookie-token");
    Recorded handled = echo.take();
    assertThat(handled.header("X-Okapi-Token")).isEqualTo("module-token-for:cookie-token");
    assertThat(handled.header("Cookie")).contains("folioAccessToken=cookie-token");
  }

  @Test
  void token_fromCookie_namesTheTenantWhenNoHeader() {
    gw.request()
        .header("Cookie", "folioAccessToken=" + UnsignedJwt.of("diku", "u"))
        .get("/echo")
        .then()
        .statusCode(200);
    assertThat(tokenAuthGot()).isEqualTo(UnsignedJwt.of("diku", "u"));
    assertThat(echo.take().header("X-Okapi-Tenant")).isEqualTo("diku");
  }

  @Test
  void token_fromBareAuthorization_andAuthorizationNeverForwarded() {
    gw.tenant("diku").header("Authorization", "bare-token").get("/echo").then().statusCode(200);
    assertThat(tokenAuthGot()).isEqualTo("bare-token");
    assertThat(echo.take().header("Authorization")).isNull();
  }

  @Test
  void token_fromBearerAuthorization_sameAsXOkapiTokenIsFine() {
    gw.tenant("diku")
        .header("Authorization", "Bearer b-token")
        .header("X-Okapi-Token", "b-token")
        .get("/echo")
        .then()
        .statusCode(200);
    assertThat(tokenAuthGot()).isEqualTo("b-token");
  }

  @Test
  void token_conflicts_400NamingTheSourcesAndNothingCalled() {
    gw.tenant("diku")
        .header("Authorization", "Bearer one")
        .header("X-Okapi-Token", "two")
        .get("/echo")
        .then()
        .statusCode(400)
        .body(containsString("different tokens"));
    gw.tenant("diku")
        .header("X-Okapi-Token", "one")
        .header("Cookie", "folioAccessToken=two")
        .get("/echo")
        .then()
        .statusCode(400)
        .body(containsString("folioAccessToken"));
    gw.tenant("diku")
        .header("Cookie", "folioAccessToken=one; folioAccessToken=two")
        .get("/echo")
        .then()
        .statusCode(400)
        .body(containsString("more than one"));
    assertThat(auth.pending()).isZero();
    assertThat(echo.pending()).isZero();
  }

  @Test
  void tenant_noHeaderNoToken_isTheSupertenant() {
    gw.request()
        .get("/echo")
        .then()
        .statusCode(404)
        .body(containsString("no module serves GET /echo for tenant supertenant"));
    gw.request()
        .header("X-Okapi-Token", "not-a-jwt")
        .get("/echo")
        .then()
        .statusCode(400)
        .body(containsString("not a JWT"));
  }

  @Test
  void moduleHeaders_okapiRequestHeadersAndMatchedPattern() {
    gw.tenant("diku")
        .header("X-Okapi-Token", "t")
        .header("X-Okapi-request-ip", "6.6.6.6")
        .post("/echo/x")
        .then()
        .statusCode(200);
    Recorded handled = echo.take();
    assertThat(handled.header("X-Okapi-Match-Path-Pattern")).isEqualTo("/echo*");
    assertThat(handled.header("X-Okapi-request-ip")).isEqualTo("127.0.0.1");
    assertThat(handled.header("X-Okapi-request-method")).isEqualTo("POST");
    assertThat(handled.header("X-Okapi-request-timestamp")).matches("\\d{13}");
    assertThat(handled.header("X-Okapi-Url")).isEqualTo(gw.url());
  }

  @Test
  void response_moduleEchoingItsToken_neverHandsItToTheClient() {
    gw.tenant("diku")
        .header("X-Okapi-Token", "t1")
        .get("/echo?echo=own")
        .then()
        .statusCode(200)
        .header("X-Okapi-Token", nullValue());
    assertThat(echo.take().header("X-Okapi-Token")).isEqualTo("module-token-for:t1");
  }

  @Test
  void response_moduleIssuingANewToken_reachesTheClient() {
    gw.tenant("diku")
        .header("X-Okapi-Token", "t2")
        .get("/echo?echo=mine")
        .then()
        .statusCode(200)
        .header("X-Okapi-Token", equalTo("new-login-token"));
  }
}
