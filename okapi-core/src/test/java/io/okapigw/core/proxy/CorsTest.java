package io.okapigw.core.proxy;

import static io.okapigw.core.testing.GatewayFixture.handler;
import static io.okapigw.core.testing.GatewayFixture.module;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.TestModule;
import io.okapigw.core.testing.TestModule.Recorded;
import io.restassured.response.ValidatableResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** CORS and {@code /_/invoke/tenant/...} as Okapi 6.1.5 answers them (checked side by side). */
class CorsTest {

  private static final String UI = "https://ui.example.org";

  @RegisterExtension final GatewayFixture gw = new GatewayFixture();
  private TestModule module;

  @BeforeEach
  void start() {
    gw.createTenant("diku");
    module =
        TestModule.start(
            gw.vertx(),
            router ->
                router
                    .route()
                    .handler(
                        ctx ->
                            ctx.request()
                                .body()
                                .onSuccess(
                                    body -> {
                                      if (ctx.request().method().name().equals("OPTIONS")) {
                                        ctx.response()
                                            .putHeader(
                                                "Access-Control-Allow-Origin", "module-says");
                                      }
                                      ctx.response().end("got " + body.length());
                                    })));
    gw.install(
        "diku",
        module(
            "mod-items-1.0.0",
            "items",
            handler("*", "/items*"),
            handler("GET", "/sso/callback").put("delegateCORS", true)),
        module.url());
  }

  private static void assertPreflight(ValidatableResponse response) {
    response
        .statusCode(204)
        .header("Access-Control-Allow-Origin", UI)
        .header("Access-Control-Allow-Credentials", "true")
        .header("Access-Control-Allow-Methods", "PUT,PATCH,DELETE,GET,POST")
        .header(
            "Access-Control-Allow-Headers",
            "content-type,X-Okapi-Tenant,X-Okapi-Token,"
                + "Authorization,X-Okapi-Request-Id,X-Okapi-Module-Id,Credentials")
        .header("Access-Control-Max-Age", "7200");
  }

  @Test
  void preflight_onModulePathAndAdminPath_204WithOkapisHeadersAndNoModuleCall() {
    assertPreflight(
        gw.request()
            .header("Origin", UI)
            .header("Access-Control-Request-Method", "POST")
            .header("Access-Control-Request-Headers", "X-Okapi-Tenant,Content-Type")
            .options("/items/1")
            .then());
    assertPreflight(
        gw.request()
            .header("Origin", UI)
            .header("Access-Control-Request-Method", "GET")
            .options("/_/proxy/tenants")
            .then());
    assertThat(module.pending()).isZero();
  }

  @Test
  void simpleRequest_withBody_streamedAndAnsweredWithCorsHeaders() {
    gw.tenant("diku")
        .header("Origin", UI)
        .body("hello")
        .post("/items/1")
        .then()
        .statusCode(200)
        .body(equalTo("got 5"))
        .header("Access-Control-Allow-Origin", UI)
        .header("Access-Control-Allow-Credentials", "true")
        .header(
            "Access-Control-Expose-Headers",
            "location,X-Okapi-Trace,X-Okapi-Token,"
                + "Authorization,X-Okapi-Request-Id,X-Okapi-Module-Id,Credentials");
    assertThat(module.take().header("Origin")).isEqualTo(UI);
  }

  /** vert.x-web fails an Origin that is not an origin with no status: 403, not 500. */
  @Test
  void originNotAnOrigin_403NotInternalError() {
    for (String origin : new String[] {"https://a b", "https://a\tb"}) {
      gw.tenant("diku")
          .header("Origin", origin)
          .get("/items/1")
          .then()
          .statusCode(403)
          .body(containsString("CORS"));
    }
    assertThat(module.drain()).isEmpty();
  }

  @Test
  void requestWithoutOrigin_noCorsHeaders() {
    gw.tenant("diku")
        .get("/items/1")
        .then()
        .statusCode(200)
        .header("Access-Control-Allow-Origin", nullValue());
  }

  @Test
  void invoke_proxiesForTheTenantInThePath() {
    gw.request()
        .get("/_/invoke/tenant/diku/items/5?q=1")
        .then()
        .statusCode(200)
        .body(equalTo("got 0"));
    Recorded call = module.take();
    assertThat(call.uri()).isEqualTo("/items/5?q=1");
    assertThat(call.header("X-Okapi-Tenant")).isEqualTo("diku");
  }

  @Test
  void invoke_preflightForDelegateCorsHandler_goesToTheModule() {
    gw.request()
        .header("Origin", UI)
        .header("Access-Control-Request-Method", "GET")
        .options("/_/invoke/tenant/diku/sso/callback")
        .then()
        .statusCode(200)
        .header("Access-Control-Allow-Origin", "module-says");
    Recorded call = module.take();
    assertThat(call.method()).isEqualTo("OPTIONS");
    assertThat(call.uri()).isEqualTo("/sso/callback");
  }

  @Test
  void invoke_preflightForOtherHandler_answeredByTheGateway() {
    assertPreflight(
        gw.request()
            .header("Origin", UI)
            .header("Access-Control-Request-Method", "GET")
            .options("/_/invoke/tenant/diku/items/1")
            .then());
    assertThat(module.pending()).isZero();
  }
}
