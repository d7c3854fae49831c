package io.okapigw.core.auth;

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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Okapi auth-filter protocol against a test auth filter; no cache involved. */
class AuthProtocolTest {

  private static final String ITEMS = "mod-items-1.0.0";

  private GatewayFixture gw;
  private TestModule auth;
  private TestModule items;

  @BeforeEach
  void start() {
    gw = new GatewayFixture();
    gw.createTenant("diku");
    auth = TestModule.start(gw.vertx(), router -> router.route().handler(AuthProtocolTest::decide));
    items = TestModule.start(gw.vertx(), router -> router.route().handler(ctx -> ctx.response()
        .putHeader("X-Okapi-Permissions-Required", "[\"leak\"]").end("item")));
    gw.install("diku", new JsonObject().put("id", "mod-auth-1.0.0").put("filters",
        new JsonArray().add(new JsonObject().put("methods", new JsonArray().add("*"))
            .put("pathPattern", "/*").put("phase", "auth").put("type", "headers"))), auth.url());
    gw.install("diku", module(ITEMS, "items", handler("GET", "/items/{id}", "items.item.get")
        .put("permissionsDesired", new JsonArray().add("items.extra"))
        .put("modulePermissions", new JsonArray().add("storage.read"))), items.url());
    gw.install("diku", module("mod-plain-1.0.0", "plain", handler("GET", "/plain")), items.url());
  }

  @AfterEach
  void stop() {
    gw.close();
  }

  /** Grants token "good", forbids "weak", refuses anything else with 401; 500 for "broken". */
  private static void decide(RoutingContext ctx) {
    String token = ctx.request().getHeader("X-Okapi-Token");
    if ("good".equals(token)) {
      ctx.response().setStatusCode(202)
          .putHeader("X-Okapi-Token", "user-token")
          .putHeader("X-Okapi-User-Id", "user-1")
          .putHeader("X-Okapi-Permissions", "[\"items.item.get\"]")
          .putHeader("X-Okapi-Module-Tokens",
              new JsonObject().put(ITEMS, "items-module-token").put("_", "default-token").encode())
          .end();
    } else if ("weak".equals(token)) {
      ctx.response().setStatusCode(403).putHeader("Content-Type", "application/json")
          .end("{\"errors\":[{\"message\":\"missing permission items.item.get\"}]}");
    } else if ("broken".equals(token)) {
      ctx.response().setStatusCode(500).end("boom");
    } else {
      ctx.response().setStatusCode(401).putHeader("Content-Type", "text/plain")
          .end("invalid token");
    }
  }

  @Test
  void authCall_carriesOkapiProtocolHeadersAndNoBody() {
    gw.tenant("diku").header("X-Okapi-Token", "good").header("X-Okapi-User-Id", "user-1")
        .get("/items/7?fields=all").then().statusCode(200);
    Recorded call = auth.take();
    assertThat(call.method()).isEqualTo("GET");
    assertThat(call.uri()).isEqualTo("/items/7?fields=all");
    assertThat(call.header("X-Okapi-Filter")).isEqualTo("auth");
    assertThat(call.header("X-Okapi-Tenant")).isEqualTo("diku");
    assertThat(call.header("X-Okapi-Token")).isEqualTo("good");
    assertThat(call.header("X-Okapi-User-Id")).isEqualTo("user-1");
    assertThat(call.header("X-Okapi-Url")).isEqualTo(gw.url());
    assertThat(call.header("X-Okapi-Request-Id")).matches("\\d{6}/items");
    assertThat(new JsonArray(call.header("X-Okapi-Permissions-Required")))
        .containsExactly("items.item.get");
    assertThat(new JsonArray(call.header("X-Okapi-Permissions-Desired")))
        .containsExactly("items.extra");
    assertThat(new JsonObject(call.header("X-Okapi-Module-Permissions")))
        .isEqualTo(new JsonObject().put(ITEMS, new JsonArray().add("storage.read")));
    assertThat(call.header("Content-Length")).isEqualTo("0");
  }

  @Test
  void grant_appliesModuleTokenUserAndPermissions_stripsAuthOnlyHeaders() {
    gw.tenant("diku").header("X-Okapi-Token", "good").header("X-Okapi-Permissions", "[\"forged\"]")
        .get("/items/7").then().statusCode(200).body(equalTo("item"))
        .header("X-Okapi-Permissions-Required", nullValue());
    auth.take();
    Recorded handled = items.take();
    assertThat(handled.header("X-Okapi-Token")).isEqualTo("items-module-token");
    assertThat(handled.header("X-Okapi-User-Id")).isEqualTo("user-1");
    assertThat(handled.header("X-Okapi-Permissions")).isEqualTo("[\"items.item.get\"]");
    for (String h : new String[] {"X-Okapi-Module-Tokens", "X-Okapi-Module-Permissions",
        "X-Okapi-Permissions-Required", "X-Okapi-Permissions-Desired", "X-Okapi-Filter"}) {
      assertThat(handled.header(h)).as(h).isNull();
    }
  }

  @Test
  void grant_moduleWithoutOwnToken_getsDefaultToken() {
    gw.tenant("diku").header("X-Okapi-Token", "good").get("/plain").then().statusCode(200);
    assertThat(items.take().header("X-Okapi-Token")).isEqualTo("default-token");
  }

  @Test
  void denial_401And403PassedThroughAndHandlerNotCalled() {
    gw.tenant("diku").header("X-Okapi-Token", "nonsense").get("/items/7").then().statusCode(401)
        .contentType(containsString("text/plain")).body(equalTo("invalid token"));
    gw.tenant("diku").header("X-Okapi-Token", "weak").get("/items/7").then().statusCode(403)
        .contentType(containsString("application/json"))
        .body("errors[0].message", equalTo("missing permission items.item.get"));
    assertThat(items.pending()).isZero();
  }

  @Test
  void authModule_failing_503FailClosed() {
    gw.tenant("diku").header("X-Okapi-Token", "broken").get("/items/7").then().statusCode(503)
        .body(containsString("auth module answered 500"));
    auth.close();
    gw.tenant("diku").header("X-Okapi-Token", "good").get("/items/7").then().statusCode(503)
        .body(containsString("mod-auth-1.0.0 unavailable"));
    assertThat(items.pending()).isZero();
  }

  @Test
  void preAndPostFilters_getOriginalToken_preCanRefuse_postSeesHandlerResult() {
    TestModule filters = TestModule.start(gw.vertx(), router -> router.route().handler(ctx -> {
      boolean refuse = "pre".equals(ctx.request().getHeader("X-Okapi-Filter"))
          && ctx.request().getHeader("X-Refuse") != null;
      ctx.response().setStatusCode(refuse ? 422 : 200).end(refuse ? "pre filter says no" : "");
    }));
    gw.install("diku", new JsonObject().put("id", "mod-filters-1.0.0").put("filters",
        new JsonArray()
            .add(new JsonObject().put("methods", new JsonArray().add("GET"))
                .put("pathPattern", "/items*").put("phase", "pre").put("type", "headers"))
            .add(new JsonObject().put("methods", new JsonArray().add("GET"))
                .put("pathPattern", "/items*").put("phase", "post").put("type", "headers"))),
        filters.url());
    gw.tenant("diku").header("X-Okapi-Token", "good").get("/items/7").then().statusCode(200);
    Recorded pre = filters.take();
    Recorded post = filters.take();
    assertThat(pre.header("X-Okapi-Filter")).isEqualTo("pre");
    assertThat(pre.header("X-Okapi-Token")).isEqualTo("good");
    assertThat(post.header("X-Okapi-Filter")).isEqualTo("post");
    assertThat(post.header("X-Okapi-Token")).isEqualTo("good");
    assertThat(post.header("X-Okapi-Handler-Result")).isEqualTo("200");
    items.take();
    gw.tenant("diku").header("X-Okapi-Token", "good").header("X-Refuse", "1").get("/items/7")
        .then().statusCode(422).body(equalTo("pre filter says no"));
    assertThat(items.pending()).isZero();
  }
}
