package io.okapigw.core.timer;

import static io.okapigw.core.testing.GatewayFixture.authModule;
import static io.okapigw.core.timer.TimerFiringTest.START;
import static io.okapigw.core.timer.TimerFiringTest.TIMER_MODULE;
import static io.okapigw.core.timer.TimerFiringTest.every;
import static io.okapigw.core.timer.TimerFiringTest.timerModule;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.testing.FakeScheduler;
import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.TestModule;
import io.okapigw.core.testing.UnsignedJwt;
import io.restassured.specification.RequestSpecification;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The timer API behind the admin API's protection, with Okapi's permissions: {@code
 * okapi.proxy.tenants.timers.list/get/patch}; for a tenant's own timers, reading needs none and
 * changing needs {@code okapi.proxy.self.timers.patch} (Okapi's permissionsRequiredTenant).
 */
class TimersApiSecurityTest {

  private static final String SUPER = UnsignedJwt.of("supertenant", "super_admin");
  private static final String DIKU_ADMIN = UnsignedJwt.of("diku", "diku_admin");
  private static final String SELF_PATCH = "okapi.proxy.self.timers.patch";

  private GatewayFixture gw;
  private TestModule auth;

  @BeforeEach
  void start() {
    gw = new GatewayFixture(GatewayOptions.defaults(0), new FakeScheduler(START));
    auth =
        TestModule.start(
            gw.vertx(), router -> router.route().handler(TimersApiSecurityTest::decide));
    TestModule module =
        TestModule.start(
            gw.vertx(),
            router -> router.route().handler(ctx -> ctx.response().setStatusCode(204).end()));
    String okapiModule =
        gw.request()
            .get("/_/proxy/tenants/supertenant/modules?filter=okapi")
            .then()
            .extract()
            .path("[0].id");
    gw.createTenant("diku");
    gw.enable("diku", okapiModule);
    gw.install(
        "diku", timerModule(TIMER_MODULE, every("POST", "/notices", "1", "minute")), module.url());
    gw.install("diku", authModule("mod-auth-1.0.0"), auth.url());
    gw.enable("supertenant", "mod-auth-1.0.0");
    auth.drain();
  }

  @AfterEach
  void stop() {
    gw.close();
  }

  /** {@link #SUPER} holds every permission, {@link #DIKU_ADMIN} only the self patch one. */
  private static void decide(RoutingContext ctx) {
    String token = ctx.request().getHeader("X-Okapi-Token");
    String required = ctx.request().getHeader("X-Okapi-Permissions-Required");
    boolean holds =
        required == null
            || SUPER.equals(token)
            || DIKU_ADMIN.equals(token) && required.equals(SELF_PATCH);
    if (!holds) {
      ctx.response().setStatusCode(token == null ? 401 : 403).end("needs " + required);
      return;
    }
    ctx.response()
        .setStatusCode(202)
        .putHeader(
            "X-Okapi-Module-Tokens",
            new JsonObject().put("_", token == null ? "anonymous" : token).encode())
        .end();
  }

  private RequestSpecification as(String token, String tenant) {
    RequestSpecification request = gw.request().header("X-Okapi-Tenant", tenant);
    return token == null ? request : request.header("X-Okapi-Token", token);
  }

  private List<String> required() {
    return auth.drain().stream().map(r -> r.header("X-Okapi-Permissions-Required")).toList();
  }

  @Test
  void otherTenantsTimers_needOkapisTimerPermissions() {
    String timers = "/_/proxy/tenants/diku/timers";
    as(null, "supertenant").get(timers).then().statusCode(401);
    as(SUPER, "supertenant").get(timers).then().statusCode(200);
    as(SUPER, "supertenant").get(timers + "/mod-timer_0").then().statusCode(200);
    as(SUPER, "supertenant")
        .body("{\"delay\":\"0\"}")
        .patch(timers + "/mod-timer_0")
        .then()
        .statusCode(204);
    as(SUPER, "supertenant")
        .body("{\"id\":\"mod-timer_0\",\"routingEntry\":{}}")
        .patch(timers)
        .then()
        .statusCode(204);
    assertThat(required())
        .containsExactly(
            "okapi.proxy.tenants.timers.list",
            "okapi.proxy.tenants.timers.list",
            "okapi.proxy.tenants.timers.get",
            "okapi.proxy.tenants.timers.patch",
            "okapi.proxy.tenants.timers.patch");
  }

  @Test
  void ownTenantsTimers_readWithAnyToken_changedWithTheSelfPermission() {
    String timers = "/_/proxy/tenants/diku/timers";
    as(DIKU_ADMIN, "diku").get(timers).then().statusCode(200);
    as(DIKU_ADMIN, "diku").get(timers + "/mod-timer_0").then().statusCode(200);
    as(DIKU_ADMIN, "diku")
        .body("{\"delay\":\"0\"}")
        .patch(timers + "/mod-timer_0")
        .then()
        .statusCode(204);
    assertThat(required()).containsExactly(null, null, SELF_PATCH);
    as(DIKU_ADMIN, "diku").get("/_/proxy/tenants/supertenant/timers").then().statusCode(403);
    as(null, "diku")
        .body("{\"delay\":\"0\"}")
        .patch(timers + "/mod-timer_0")
        .then()
        .statusCode(401);
  }
}
