package io.okapigw.core.admin;

import static io.okapigw.core.testing.GatewayFixture.authModule;
import static io.okapigw.core.testing.GatewayFixture.handler;
import static io.okapigw.core.testing.GatewayFixture.module;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.TestModule;
import io.okapigw.core.testing.UnsignedJwt;
import io.restassured.specification.RequestSpecification;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The admin API once an auth module is enabled for the supertenant: each of the attacks found
 * against an open admin API, made without a token and with a token lacking the permission, is
 * refused and changes nothing; with the permission the same calls succeed.
 */
class AdminSecurityTest {

  private static final String AUTH = "mod-auth-1.0.0";
  private static final String ITEMS = "mod-items-1.0.0";

  /** Tokens are JWTs naming their tenant, so admin calls need no tenant header. */
  private static final String SUPER = UnsignedJwt.of("supertenant", "super_admin");

  private static final String WEAK = UnsignedJwt.of("supertenant", "weak_admin");
  private static final String DIKU_USER = UnsignedJwt.of("diku", "diku_user");

  @RegisterExtension final GatewayFixture gw = new GatewayFixture();
  private TestModule auth;
  private TestModule items;

  @BeforeEach
  void start() {
    auth =
        TestModule.start(gw.vertx(), router -> router.route().handler(AdminSecurityTest::decide));
    items =
        TestModule.start(
            gw.vertx(), router -> router.route().handler(ctx -> ctx.response().end("items")));
    gw.createTenant("diku");
    gw.install("diku", module(ITEMS, "items", handler("GET", "/items")), items.url());
    gw.install("diku", authModule(AUTH), auth.url());
    gw.enable("supertenant", AUTH);
    auth.drain();
  }

  /**
   * A stand-in auth filter: {@link #SUPER} holds every permission, the other tokens none; no token
   * holds none; a required permission not held is a 403 (401 without a token).
   */
  private static void decide(RoutingContext ctx) {
    String token = ctx.request().getHeader("X-Okapi-Token");
    String required = ctx.request().getHeader("X-Okapi-Permissions-Required");
    List<String> needs = required == null ? List.of() : Arrays.asList(required.split(","));
    boolean holds = SUPER.equals(token) || needs.isEmpty();
    if (!holds) {
      ctx.response()
          .setStatusCode(token == null ? 401 : 403)
          .end("Access requires permission: " + required);
      return;
    }
    ctx.response()
        .setStatusCode(202)
        .putHeader(
            "X-Okapi-Module-Tokens",
            new JsonObject().put("_", token == null ? "anonymous" : token).encode())
        .end();
  }

  private RequestSpecification as(String token) {
    RequestSpecification request = gw.request();
    return token == null ? request : request.header("X-Okapi-Token", token);
  }

  private String registry() {
    return String.join(
        "\n",
        as(SUPER).get("/_/proxy/modules").asString(),
        as(SUPER).get("/_/proxy/tenants").asString(),
        as(SUPER).get("/_/proxy/tenants/diku/modules").asString(),
        as(SUPER).get("/_/discovery/modules").asString());
  }

  /** The attacks of the security review, each as a function of the caller's token. */
  private List<Function<String, Integer>> attacks() {
    JsonObject evilFilter =
        new JsonObject()
            .put("id", "mod-evil-1.0.0")
            .put(
                "filters",
                new JsonArray()
                    .add(
                        new JsonObject()
                            .put("methods", new JsonArray().add("*"))
                            .put("pathPattern", "/*")
                            .put("phase", "pre")
                            .put("type", "headers")));
    return List.of(
        // re-point a module's discovery entry to the attacker's server
        token -> as(token).delete("/_/discovery/modules/" + ITEMS).statusCode(),
        token ->
            as(token)
                .body(
                    new JsonObject()
                        .put("srvcId", ITEMS)
                        .put("instId", "evil")
                        .put("url", "http://127.0.0.1:9")
                        .encode())
                .post("/_/discovery/modules")
                .statusCode(),
        // register a pre filter on /* for a tenant, receiving every caller's token
        token -> as(token).body(evilFilter.encode()).post("/_/proxy/modules").statusCode(),
        // disable a tenant's modules, delete tenants, flush the auth cache
        token -> as(token).delete("/_/proxy/tenants/diku/modules/" + ITEMS).statusCode(),
        token -> as(token).delete("/_/proxy/tenants/diku").statusCode(),
        token -> as(token).body("{}").post("/_/proxy/auth-cache/invalidate").statusCode(),
        // re-point the auth module to a server that grants everything (last: it breaks auth)
        token ->
            as(token)
                .body(
                    new JsonObject()
                        .put("srvcId", AUTH)
                        .put("instId", "evil")
                        .put("url", "http://127.0.0.1:9")
                        .encode())
                .post("/_/discovery/modules")
                .statusCode());
  }

  @Test
  void attacks_withoutToken_401AndNothingChanged() {
    String before = registry();
    attacks().forEach(attack -> assertThat(attack.apply(null)).isEqualTo(401));
    assertThat(registry()).isEqualTo(before);
  }

  @Test
  void attacks_withTokenLackingThePermission_403AndNothingChanged() {
    String before = registry();
    attacks().forEach(attack -> assertThat(attack.apply(WEAK)).isEqualTo(403));
    assertThat(registry()).isEqualTo(before);
  }

  @Test
  void sameCalls_withThePermission_succeed() {
    List<Integer> statuses = attacks().stream().map(attack -> attack.apply(SUPER)).toList();
    assertThat(statuses).containsExactly(204, 201, 201, 204, 204, 204, 201);
  }

  @Test
  void adminCall_goesThroughTheAuthFilterWithOkapisPermissionAndIsCached() {
    as(SUPER).get("/_/proxy/tenants").then().statusCode(200);
    as(SUPER).get("/_/proxy/tenants").then().statusCode(200);
    TestModule.Recorded call = auth.take();
    assertThat(call.header("X-Okapi-Tenant")).isEqualTo("supertenant");
    assertThat(call.header("X-Okapi-Permissions-Required")).isEqualTo("okapi.proxy.tenants.list");
    assertThat(auth.pending()).as("second call answered from the cache").isZero();
    as(SUPER)
        .get("/_/metrics")
        .then()
        .statusCode(200)
        .body(containsString("okapi_auth_calls_total{outcome=\"granted\",tenant=\"supertenant\"}"));
  }

  @Test
  void okapiCalls_needOkapisPermissionForEach() {
    Map<String, Function<String, Integer>> calls = new LinkedHashMap<>();
    calls.put("okapi.discovery.health.get", t -> as(t).get("/_/discovery/health").statusCode());
    calls.put("okapi.discovery.nodes.get", t -> as(t).get("/_/discovery/nodes").statusCode());
    calls.put(
        "okapi.proxy.modules.post",
        t -> as(t).body("[]").post("/_/proxy/import/modules").statusCode());
    calls.put(
        "okapi.proxy.tenants.put",
        t -> as(t).body("{\"id\":\"other\"}").put("/_/proxy/tenants/other").statusCode());
    calls.put(
        "okapi.proxy.tenants.interfaces.list",
        t -> as(t).get("/_/proxy/tenants/diku/interfaces").statusCode());
    calls.put(
        "okapi.proxy.tenants.interfaces.get",
        t -> as(t).get("/_/proxy/tenants/diku/interfaces/items").statusCode());
    calls.forEach(
        (permission, call) -> {
          assertThat(call.apply(null)).as(permission).isEqualTo(401);
          assertThat(call.apply(WEAK)).as(permission).isEqualTo(403);
          assertThat(auth.drain())
              .as(permission)
              .anySatisfy(
                  r -> assertThat(r.header("X-Okapi-Permissions-Required")).isEqualTo(permission));
          assertThat(call.apply(SUPER)).as(permission).isBetween(200, 204);
        });
  }

  @Test
  void health_openWithoutPermission_andSaysItIsProtected() {
    gw.request()
        .get("/_/proxy/health")
        .then()
        .statusCode(200)
        .body("adminApi.protected", equalTo(true))
        .body("adminApi.authModule", equalTo(AUTH));
  }

  @Test
  void tenantHeader_adminCallForATenantWithoutTheOkapiModule_404AsOkapi() {
    as(SUPER).header("X-Okapi-Tenant", "diku").get("/_/proxy/tenants").then().statusCode(404);
  }

  @Test
  void ownTenant_readsItsOwnModulesWithAnyTokenOnceTheOkapiModuleIsEnabledForIt() {
    String okapiModule =
        as(SUPER)
            .get("/_/proxy/tenants/supertenant/modules?filter=okapi")
            .then()
            .extract()
            .path("[0].id");
    as(SUPER)
        .body(new JsonObject().put("id", okapiModule).encode())
        .post("/_/proxy/tenants/diku/modules")
        .then()
        .statusCode(201);
    as(DIKU_USER)
        .header("X-Okapi-Tenant", "diku")
        .get("/_/proxy/tenants/diku/modules")
        .then()
        .statusCode(200);
    as(DIKU_USER)
        .header("X-Okapi-Tenant", "diku")
        .get("/_/proxy/tenants/diku/interfaces")
        .then()
        .statusCode(200);
    as(DIKU_USER)
        .header("X-Okapi-Tenant", "diku")
        .get("/_/proxy/tenants/diku/interfaces/items")
        .then()
        .statusCode(200);
    as(DIKU_USER).header("X-Okapi-Tenant", "diku").get("/_/proxy/tenants").then().statusCode(403);
    gw.request()
        .header("X-Okapi-Tenant", "diku")
        .get("/_/proxy/tenants/diku/modules")
        .then()
        .statusCode(401);
  }

  @Test
  void supertenant_cannotBeDeletedNorLoseItsOkapiModule() {
    as(SUPER)
        .delete("/_/proxy/tenants/supertenant")
        .then()
        .statusCode(400)
        .body(containsString("supertenant"));
    String okapiModule =
        as(SUPER)
            .get("/_/proxy/tenants/supertenant/modules?filter=okapi")
            .then()
            .extract()
            .path("[0].id");
    as(SUPER)
        .delete("/_/proxy/tenants/supertenant/modules/" + okapiModule)
        .then()
        .statusCode(400)
        .body(containsString("admin API"));
  }

  @Test
  void authModuleDiscoveryChange_dropsTheTenantsCachedGrants() {
    gw.tenant("diku").header("X-Okapi-Token", SUPER).get("/items").then().statusCode(200);
    gw.tenant("diku").header("X-Okapi-Token", SUPER).get("/items").then().statusCode(200);
    assertThat(authCallsFor("diku")).isEqualTo(1);
    as(SUPER)
        .body(
            new JsonObject()
                .put("srvcId", AUTH)
                .put("instId", "second")
                .put("url", auth.url())
                .encode())
        .post("/_/discovery/modules")
        .then()
        .statusCode(201);
    gw.tenant("diku").header("X-Okapi-Token", SUPER).get("/items").then().statusCode(200);
    assertThat(authCallsFor("diku")).as("the grant from before the change is gone").isEqualTo(1);
  }

  private long authCallsFor(String tenant) {
    return auth.drain().stream().filter(r -> tenant.equals(r.header("X-Okapi-Tenant"))).count();
  }
}
