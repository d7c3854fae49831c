package io.okapigw.core.proxy;

import static io.okapigw.core.testing.GatewayFixture.authModule;
import static io.okapigw.core.testing.GatewayFixture.handler;
import static io.okapigw.core.testing.GatewayFixture.module;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.TestModule;
import io.okapigw.core.testing.TestModule.Recorded;
import io.restassured.specification.RequestSpecification;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Nothing a client says about who it is or what the gateway decided reaches a module unless the
 * gateway put it there: the client's {@code X-Okapi-User-Id}, {@code -Permissions}, {@code
 * -Handler-Result}, {@code -Handler-Headers}, {@code -Auth-Result}, {@code -Auth-Headers}, ... are
 * dropped on every path: handlers and pre/post filters, tenants with an auth filter and without,
 * requests with a token and without.
 */
class IdentityHeadersTest {

  /** What a client may claim; the gateway alone writes these headers. */
  private static final List<String> CLAIMS =
      List.of(
          "X-Okapi-User-Id",
          "X-Okapi-Permissions",
          "X-Okapi-Handler-Result",
          "X-Okapi-Handler-Headers",
          "X-Okapi-Auth-Result",
          "X-Okapi-Auth-Headers",
          "X-Okapi-Module-Tokens",
          "X-Okapi-Extra-Permissions");

  @RegisterExtension final GatewayFixture gw = new GatewayFixture();
  private TestModule auth;
  private TestModule filters;
  private TestModule items;

  @BeforeEach
  void start() {
    auth =
        TestModule.start(
            gw.vertx(),
            router ->
                router
                    .route()
                    .handler(
                        ctx -> {
                          boolean token = ctx.request().getHeader("X-Okapi-Token") != null;
                          ctx.response().setStatusCode(202);
                          if (token) {
                            ctx.response()
                                .putHeader("X-Okapi-User-Id", "granted-user")
                                .putHeader("X-Okapi-Permissions", "[\"granted\"]");
                          }
                          ctx.response().end();
                        }));
    filters = TestModule.start(gw.vertx(), router -> router.route().handler(ctx -> ctx.end()));
    items = TestModule.start(gw.vertx(), router -> router.route().handler(ctx -> ctx.end("item")));
    JsonObject itemsModule = module("mod-items-1.0.0", "items", handler("GET", "/items"));
    JsonObject filterModule =
        new JsonObject()
            .put("id", "mod-filters-1.0.0")
            .put("filters", new JsonArray().add(filter("pre")).add(filter("post")));
    gw.createTenant("open");
    gw.install("open", itemsModule, items.url());
    gw.install("open", filterModule, filters.url());
    gw.createTenant("diku");
    gw.install("diku", authModule("mod-auth-1.0.0"), auth.url());
    gw.enable("diku", "mod-items-1.0.0");
    gw.enable("diku", "mod-filters-1.0.0");
  }

  private static JsonObject filter(String phase) {
    return new JsonObject()
        .put("methods", new JsonArray().add("*"))
        .put("pathPattern", "/items*")
        .put("phase", phase)
        .put("type", "headers");
  }

  private RequestSpecification claiming(String tenant) {
    RequestSpecification spec = gw.tenant(tenant);
    CLAIMS.forEach(name -> spec.header(name, "claimed-by-client"));
    return spec;
  }

  @Test
  void tenantWithoutAuthFilter_claimsReachNeitherHandlerNorFilters() {
    claiming("open").get("/items").then().statusCode(200);
    assertNoClaims(items.take(), "handler");
    assertNoClaimsButResult(filters.take(), "pre filter");
    assertNoClaimsButResult(filters.take(), "post filter");
  }

  @Test
  void tokenless_claimsReachNeitherAuthFilterNorHandlerNorFilters() {
    claiming("diku").get("/items").then().statusCode(200);
    assertNoClaims(auth.take(), "auth filter");
    assertNoClaims(items.take(), "handler");
    assertNoClaimsButResult(filters.take(), "pre filter");
    assertNoClaimsButResult(filters.take(), "post filter");
  }

  @Test
  void withToken_modulesGetTheGrantsUserAndPermissionsOnly() {
    claiming("diku").header("X-Okapi-Token", "t").get("/items").then().statusCode(200);
    Recorded call = auth.take();
    assertThat(call.headers().getAll("X-Okapi-User-Id"))
        .as("the auth filter is told the user id claimed with a token, once")
        .containsExactly("claimed-by-client");
    Recorded handled = items.take();
    assertThat(handled.headers().getAll("X-Okapi-User-Id")).containsExactly("granted-user");
    assertThat(handled.headers().getAll("X-Okapi-Permissions")).containsExactly("[\"granted\"]");
    for (String phase : List.of("pre", "post")) {
      Recorded filter = filters.take();
      assertThat(filter.headers().getAll("X-Okapi-User-Id"))
          .as(phase)
          .containsExactly("granted-user");
      assertNoClaimsButResult(filter, phase + " filter");
    }
  }

  @Test
  void postFilter_getsTheGatewaysHandlerResultOnly() {
    claiming("open").get("/items").then().statusCode(200);
    filters.take();
    Recorded post = filters.take();
    assertThat(post.header("X-Okapi-Filter")).startsWith("post");
    assertThat(post.headers().getAll("X-Okapi-Handler-Result")).containsExactly("200");
    assertThat(post.headers().getAll("X-Okapi-Handler-Headers")).hasSize(1);
    assertThat(post.header("X-Okapi-Handler-Headers")).doesNotContain("claimed-by-client");
    assertThat(post.headers().getAll("X-Okapi-Auth-Result")).isEmpty();
  }

  private static void assertNoClaims(Recorded call, String who) {
    for (String name : CLAIMS) {
      assertThat(call.headers().getAll(name)).as(name + " to the " + who).isEmpty();
    }
  }

  /** A filter may get gateway-written results and the granted user, never the client's claims. */
  private static void assertNoClaimsButResult(Recorded call, String who) {
    for (String name : CLAIMS) {
      assertThat(call.headers().getAll(name))
          .as(name + " to the " + who)
          .doesNotContain("claimed-by-client");
    }
  }
}
