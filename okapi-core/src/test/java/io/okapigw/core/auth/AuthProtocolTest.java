package io.okapigw.core.auth;

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
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The auth-filter protocol as Okapi 6.1.5 speaks it (checked side by side with a recording peer),
 * against test auth filters; no cache involved (every token is new or the cache is bypassed by
 * distinct tokens).
 */
class AuthProtocolTest {

  private static final String ITEMS = "mod-items-1.0.0";

  /** Headers Okapi 6.1.5 never sends to an auth filter, or never with these values. */
  private static final List<String> NOT_TO_AUTH =
      List.of(
          "X-Okapi-Filter",
          "Authorization",
          "X-Okapi-Permissions",
          "Content-Length",
          "Transfer-Encoding");

  @RegisterExtension final GatewayFixture gw = new GatewayFixture();
  private TestModule auth;
  private TestModule items;

  @BeforeEach
  void start() {
    gw.createTenant("diku");
    auth = TestModule.start(gw.vertx(), router -> router.route().handler(AuthProtocolTest::decide));
    items =
        TestModule.start(
            gw.vertx(),
            router ->
                router
                    .route()
                    .handler(
                        ctx ->
                            ctx.response()
                                .putHeader("X-Okapi-Permissions-Required", "leak")
                                .end("item")));
    gw.install("diku", authModule("mod-auth-1.0.0"), auth.url());
    gw.install(
        "diku",
        module(
            ITEMS,
            "items",
            handler("GET", "/items/{id}", "items.item.get")
                .put("permissionsDesired", new JsonArray().add("items.extra").add("items.more"))
                .put(
                    "modulePermissions", new JsonArray().add("storage.read").add("storage.write"))),
        items.url());
    gw.install("diku", module("mod-plain-1.0.0", "plain", handler("GET", "/plain")), items.url());
  }

  /**
   * Tokens starting with "good" are granted (module tokens unless "good-nomt"), "weak" gets 403,
   * "broken" 500, anything else 401. Grants answer comma-separated permissions, as a filter other
   * than mod-authtoken may.
   */
  private static void decide(RoutingContext ctx) {
    String token = ctx.request().getHeader("X-Okapi-Token");
    if (token != null && token.startsWith("good")) {
      ctx.response()
          .setStatusCode(202)
          .putHeader("X-Okapi-Token", "answer-token")
          .putHeader("X-Okapi-User-Id", "user-1")
          .putHeader("X-Okapi-Permissions", "items.item.get,items.extra");
      if (!token.equals("good-nomt")) {
        ctx.response()
            .putHeader(
                "X-Okapi-Module-Tokens",
                new JsonObject()
                    .put(ITEMS, "items-module-token")
                    .put("_", "default-token")
                    .encode());
      }
      ctx.response().end();
    } else if ("weak".equals(token)) {
      ctx.response()
          .setStatusCode(403)
          .putHeader("Content-Type", "application/json")
          .end("{\"errors\":[{\"message\":\"missing permission items.item.get\"}]}");
    } else if ("broken".equals(token)) {
      ctx.response().setStatusCode(500).end("boom");
    } else {
      ctx.response()
          .setStatusCode(401)
          .putHeader("Content-Type", "text/plain")
          .end("invalid token");
    }
  }

  @Test
  void authCall_asOkapi615_commaListsModulePermissionsAlwaysNoFilterHeaderNoBody() {
    gw.tenant("diku")
        .header("X-Okapi-Token", "good-1")
        .header("X-Okapi-User-Id", "user-1")
        .header("X-Custom", "c1")
        .header("X-Okapi-Permissions", "forged")
        .get("/items/7?fields=all")
        .then()
        .statusCode(200);
    Recorded call = auth.take();
    assertThat(call.method()).isEqualTo("GET");
    assertThat(call.uri()).isEqualTo("/items/7?fields=all");
    assertThat(call.header("X-Okapi-Tenant")).isEqualTo("diku");
    assertThat(call.header("X-Okapi-Token")).isEqualTo("good-1");
    assertThat(call.header("X-Okapi-User-Id")).isEqualTo("user-1");
    assertThat(call.header("X-Okapi-Url")).isEqualTo(gw.url());
    assertThat(call.header("X-Okapi-Request-Id")).matches("\\d{6}/items~[A-Za-z0-9_-]{32}");
    assertThat(call.header("X-Okapi-Permissions-Required")).isEqualTo("items.item.get");
    assertThat(call.header("X-Okapi-Permissions-Desired")).isEqualTo("items.extra,items.more");
    assertThat(call.header("X-Okapi-Module-Permissions"))
        .isEqualTo("{\"" + ITEMS + "\":[\"storage.read\",\"storage.write\"]}");
    assertThat(call.header("X-Okapi-Match-Path-Pattern")).isEqualTo("/*");
    assertThat(call.header("X-Okapi-request-method")).isEqualTo("GET");
    assertThat(call.header("X-Okapi-request-ip")).isEqualTo("127.0.0.1");
    assertThat(Long.parseLong(call.header("X-Okapi-request-timestamp")))
        .isCloseTo(System.currentTimeMillis(), org.assertj.core.data.Offset.offset(60_000L));
    assertThat(call.header("X-Custom")).isEqualTo("c1");
    NOT_TO_AUTH.forEach(h -> assertThat(call.header(h)).as(h).isNull());
  }

  @Test
  void authCall_noPermissionNeeded_sendsNoPermissionHeadersButEmptyModulePermissions() {
    gw.tenant("diku").header("X-Okapi-Token", "good-2").get("/plain").then().statusCode(200);
    Recorded call = auth.take();
    assertThat(call.header("X-Okapi-Permissions-Required")).isNull();
    assertThat(call.header("X-Okapi-Permissions-Desired")).isNull();
    assertThat(call.header("X-Okapi-Module-Permissions")).isEqualTo("{}");
    assertThat(call.header("X-Okapi-Token")).isEqualTo("good-2");
  }

  @Test
  void authCall_withoutToken_sendsNoTokenHeader() {
    gw.tenant("diku").get("/plain").then().statusCode(401);
    assertThat(auth.take().header("X-Okapi-Token")).isNull();
  }

  @Test
  void grant_commaPermissionsReachHandlerByteForByte_withModuleTokenAndUser() {
    gw.tenant("diku")
        .header("X-Okapi-Token", "good-3")
        .header("X-Okapi-Permissions", "forged")
        .get("/items/7")
        .then()
        .statusCode(200)
        .body(equalTo("item"))
        .header("X-Okapi-Permissions-Required", nullValue());
    auth.take();
    Recorded handled = items.take();
    assertThat(handled.headers().getAll("X-Okapi-Permissions"))
        .containsExactly("items.item.get,items.extra");
    assertThat(handled.header("X-Okapi-Token")).isEqualTo("items-module-token");
    assertThat(handled.header("X-Okapi-User-Id")).isEqualTo("user-1");
    assertThat(handled.header("X-Okapi-Match-Path-Pattern")).isEqualTo("/items/{id}");
    for (String h :
        new String[] {
          "X-Okapi-Module-Tokens",
          "X-Okapi-Module-Permissions",
          "X-Okapi-Permissions-Required",
          "X-Okapi-Permissions-Desired",
          "X-Okapi-Filter"
        }) {
      assertThat(handled.header(h)).as(h).isNull();
    }
  }

  @Test
  void grant_jsonPermissionsOfModAuthtokenPassUnchanged() {
    TestModule jsonAuth =
        TestModule.start(
            gw.vertx(),
            router ->
                router
                    .route()
                    .handler(
                        ctx ->
                            ctx.response()
                                .setStatusCode(202)
                                .putHeader("X-Okapi-Permissions", "[ \"a.b\" , \"c\" ]")
                                .putHeader("X-Okapi-Module-Tokens", "{\"_\":\"t\"}")
                                .end()));
    gw.createTenant("other");
    gw.install("other", authModule("mod-json-auth-1.0.0"), jsonAuth.url());
    gw.enable("other", "mod-plain-1.0.0");
    gw.tenant("other").header("X-Okapi-Token", "x").get("/plain").then().statusCode(200);
    assertThat(items.take().header("X-Okapi-Permissions")).isEqualTo("[ \"a.b\" , \"c\" ]");
  }

  @Test
  void grant_moduleWithoutOwnToken_getsDefaultToken() {
    gw.tenant("diku").header("X-Okapi-Token", "good-4").get("/plain").then().statusCode(200);
    assertThat(items.take().header("X-Okapi-Token")).isEqualTo("default-token");
  }

  @Test
  void grant_withoutModuleTokens_moduleGetsClientTokenNotTheAnswersToken() {
    gw.tenant("diku").header("X-Okapi-Token", "good-nomt").get("/items/1").then().statusCode(200);
    assertThat(items.take().header("X-Okapi-Token")).isEqualTo("good-nomt");
  }

  @Test
  void denial_401And403PassedThroughAndHandlerNotCalled() {
    gw.tenant("diku")
        .header("X-Okapi-Token", "nonsense")
        .get("/items/7")
        .then()
        .statusCode(401)
        .contentType(containsString("text/plain"))
        .body(equalTo("invalid token"));
    gw.tenant("diku")
        .header("X-Okapi-Token", "weak")
        .get("/items/7")
        .then()
        .statusCode(403)
        .contentType(containsString("application/json"))
        .body("errors[0].message", equalTo("missing permission items.item.get"));
    assertThat(items.pending()).isZero();
  }

  @Test
  void authModule_failing_503FailClosed() {
    gw.tenant("diku")
        .header("X-Okapi-Token", "broken")
        .get("/items/7")
        .then()
        .statusCode(503)
        .body(containsString("auth module answered 500"));
    auth.close();
    gw.tenant("diku")
        .header("X-Okapi-Token", "good-5")
        .get("/items/7")
        .then()
        .statusCode(503)
        .body(containsString("mod-auth-1.0.0 unavailable"));
    assertThat(items.pending()).isZero();
  }

  @Test
  void redirect_permissionsCountAndModulePermissionsGoAsExtraPermissions() {
    gw.install(
        "diku",
        new JsonObject()
            .put("id", "mod-alias-1.0.0")
            .put(
                "filters",
                new JsonArray()
                    .add(
                        new JsonObject()
                            .put("methods", new JsonArray().add("GET"))
                            .put("pathPattern", "/alias/*")
                            .put("phase", "pre")
                            .put("type", "redirect")
                            .put("redirectPath", "/items/1")
                            .put("permissionsRequired", new JsonArray().add("alias.get"))
                            .put("modulePermissions", new JsonArray().add("alias.mod")))),
        items.url());
    gw.tenant("diku").header("X-Okapi-Token", "good-6").get("/alias/x?q=1").then().statusCode(200);
    Recorded call = auth.take();
    assertThat(call.uri()).isEqualTo("/alias/x?q=1");
    assertThat(Arrays.asList(call.header("X-Okapi-Permissions-Required").split(",")))
        .containsExactlyInAnyOrder("items.item.get", "alias.get");
    assertThat(call.header("X-Okapi-Extra-Permissions")).isEqualTo("[\"alias.mod\"]");
    Recorded handled = items.take();
    assertThat(handled.uri()).isEqualTo("/items/1?q=1");
    assertThat(handled.header("X-Okapi-Extra-Permissions")).isNull();
  }
}
