package io.okapigw.core.proxy;

import static io.okapigw.core.testing.GatewayFixture.authModule;
import static io.okapigw.core.testing.GatewayFixture.handler;
import static io.okapigw.core.testing.GatewayFixture.module;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.TestModule;
import io.okapigw.core.testing.TestModule.Recorded;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Pre and post filters as Okapi 6.1.5 runs them: told about the request (and the handler's or the
 * auth filter's result), unable to change it.
 */
class FilterSemanticsTest {

  @RegisterExtension final GatewayFixture gw = new GatewayFixture();
  private TestModule filters;
  private TestModule items;

  @BeforeEach
  void start() {
    gw.createTenant("diku");
    filters =
        TestModule.start(
            gw.vertx(),
            router ->
                router
                    .route()
                    .handler(
                        ctx -> {
                          String status = ctx.request().getHeader("X-Filter-Status");
                          ctx.response()
                              .setStatusCode(status == null ? 200 : Integer.parseInt(status))
                              .putHeader("X-Okapi-User-Id", "forged-by-filter")
                              .end("filter body");
                        }));
    items =
        TestModule.start(
            gw.vertx(),
            router ->
                router.route().handler(ctx -> ctx.response().putHeader("X-Item", "7").end("item")));
    gw.install(
        "diku", module("mod-items-1.0.0", "items", handler("GET", "/items/{id}")), items.url());
    gw.install(
        "diku",
        new JsonObject()
            .put("id", "mod-filters-1.0.0")
            .put("filters", new JsonArray().add(filter("pre")).add(filter("post"))),
        filters.url());
  }

  private static JsonObject filter(String phase) {
    return new JsonObject()
        .put("methods", new JsonArray().add("GET"))
        .put("pathPattern", "/items*")
        .put("phase", phase)
        .put("type", "headers");
  }

  @Test
  void preAndPost_getOkapiFilterHeaderWithPattern_postGetsHandlerResultAndHeaders() {
    gw.tenant("diku")
        .header("X-Okapi-Token", "t")
        .get("/items/7?x=1")
        .then()
        .statusCode(200)
        .body(equalTo("item"));
    Recorded pre = filters.take();
    assertThat(pre.uri()).isEqualTo("/items/7?x=1");
    assertThat(pre.header("X-Okapi-Filter")).isEqualTo("pre /items*");
    assertThat(pre.header("X-Okapi-Match-Path-Pattern")).isEqualTo("/items*");
    assertThat(pre.header("X-Okapi-Token")).isEqualTo("t");
    assertThat(items.take().header("X-Okapi-User-Id")).isNull();
    Recorded post = filters.take();
    assertThat(post.header("X-Okapi-Filter")).isEqualTo("post /items*");
    assertThat(post.header("X-Okapi-Handler-Result")).isEqualTo("200");
    assertThat(new JsonObject(post.header("X-Okapi-Handler-Headers")).getString("X-Item"))
        .isEqualTo("7");
  }

  @Test
  void pre_answering500_isIgnoredAndTheHandlerAnswers() {
    gw.tenant("diku")
        .header("X-Filter-Status", "500")
        .get("/items/7")
        .then()
        .statusCode(200)
        .body(equalTo("item"));
    assertThat(items.take().uri()).isEqualTo("/items/7");
  }

  @Test
  void pre_answering403_doesNotStopTheRequest() {
    gw.tenant("diku")
        .header("X-Filter-Status", "403")
        .get("/items/7")
        .then()
        .statusCode(200)
        .body(equalTo("item"));
  }

  @Test
  void pre_unreachable_502NamingTheFilterModule() {
    filters.close();
    gw.tenant("diku")
        .get("/items/7")
        .then()
        .statusCode(502)
        .body(containsString("mod-filters-1.0.0"));
    assertThat(items.pending()).isZero();
  }

  @Test
  void authRefusal_preAndPostToldTheAuthResult_clientGetsTheRefusal() {
    TestModule auth =
        TestModule.start(
            gw.vertx(),
            router ->
                router
                    .route()
                    .handler(
                        ctx ->
                            ctx.response()
                                .setStatusCode(401)
                                .putHeader("Content-Type", "text/plain")
                                .end("no token")));
    gw.install("diku", authModule("mod-auth-1.0.0"), auth.url());
    gw.tenant("diku").get("/items/7").then().statusCode(401).body(equalTo("no token"));
    Recorded pre = filters.take();
    assertThat(pre.header("X-Okapi-Auth-Result")).isEqualTo("401");
    Recorded post = filters.take();
    assertThat(post.header("X-Okapi-Auth-Result")).isEqualTo("401");
    assertThat(new JsonObject(post.header("X-Okapi-Auth-Headers")).getString("Content-Type"))
        .isEqualTo("text/plain");
    assertThat(post.header("X-Okapi-Handler-Result")).isNull();
    assertThat(items.pending()).isZero();
  }
}
