package io.okapigw.core.timer;

import static io.okapigw.core.testing.GatewayFixture.authModule;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.testing.FakeScheduler;
import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.TestModule;
import io.okapigw.core.testing.TestModule.Recorded;
import io.okapigw.testsupport.Descriptors;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Modules' {@code _timer} handlers called on their schedules on a fake clock, with the method, path
 * and headers Okapi 6.1.5 sends (checked side by side against Okapi 6.1.5 with a recording module);
 * changed, disabled and stopped as in Okapi.
 */
class TimerFiringTest {

  /** A Monday, 06:00 in CET. */
  static final Instant START = Instant.parse("2026-03-02T05:00:00Z");

  static final String TIMER_MODULE = "mod-timer-1.0.0";

  private FakeScheduler clock;
  private GatewayFixture gw;
  private TestModule module;
  private volatile int status = 204;

  @BeforeEach
  void start() {
    clock = new FakeScheduler(START);
    gw = new GatewayFixture(GatewayOptions.defaults(0), clock);
    gw.createTenant("diku");
    module =
        TestModule.start(
            gw.vertx(),
            router -> router.route().handler(ctx -> ctx.response().setStatusCode(status).end()));
  }

  @AfterEach
  void stop() {
    gw.close();
  }

  /** A module providing {@code _timer} 1.0 with these handlers. */
  static JsonObject timerModule(String id, JsonObject... handlers) {
    return Descriptors.systemModule(id, "_timer", handlers);
  }

  /** A timer handler: {@code every("POST", "/notices", "5", "minute")}. */
  static JsonObject every(String method, String path, String delay, String unit) {
    return new JsonObject()
        .put("methods", new JsonArray().add(method))
        .put("pathPattern", path)
        .put("unit", unit)
        .put("delay", delay);
  }

  static JsonObject cron(String path, String cron, String zone) {
    return new JsonObject()
        .put("methods", new JsonArray().add("POST"))
        .put("pathPattern", path)
        .put("schedule", new JsonObject().put("cron", cron).put("zone", zone));
  }

  private List<String> calls() {
    return module.drain().stream().map(r -> r.method() + " " + r.uri()).toList();
  }

  @Test
  void unitAndDelay_calledOncePerPeriod_withOkapisMethodPathAndHeaders() {
    gw.install(
        "diku", timerModule(TIMER_MODULE, every("POST", "/notices", "5", "minute")), module.url());
    clock.advance(Duration.ofMinutes(5));
    List<Recorded> got = module.drain();
    assertThat(got).hasSize(1);
    Recorded call = got.get(0);
    assertThat(call.method()).isEqualTo("POST");
    assertThat(call.uri()).isEqualTo("/notices");
    assertThat(call.header("X-Okapi-Tenant")).isEqualTo("diku");
    assertThat(call.header("X-Okapi-Url")).isEqualTo(gw.gateway().okapiUrl());
    assertThat(call.header("Content-Type")).startsWith("application/json");
    assertThat(call.header("Accept")).isEqualTo("*/*");
    assertThat(call.header("Content-Length")).isEqualTo("0");
    assertThat(call.header("X-Okapi-Token")).as("no auth module, no token").isNull();
    clock.advance(Duration.ofMinutes(5));
    assertThat(calls()).containsExactly("POST /notices");
    clock.advance(Duration.ofMinutes(15));
    assertThat(calls()).hasSize(3);
  }

  /**
   * A descriptor's timer faster than a second (Okapi takes any period) fires every second: the
   * module is called 10 times in 10 s, not 100.
   */
  @Test
  void descriptorTimerUnderASecond_firesEverySecond() {
    gw.install(
        "diku",
        timerModule(TIMER_MODULE, every("POST", "/fast", "100", "millisecond")),
        module.url());
    for (int i = 0; i < 100; i++) {
      clock.advance(Duration.ofMillis(100));
    }
    assertThat(calls()).hasSize(10).containsOnly("POST /fast");
  }

  @Test
  void withAuthModule_authFilterAskedWithModulePermissions_callCarriesModuleTokenAndPermissions() {
    TestModule auth =
        TestModule.start(
            gw.vertx(),
            router ->
                router
                    .route()
                    .handler(
                        ctx ->
                            ctx.response()
                                .setStatusCode(202)
                                .putHeader("X-Okapi-Token", "default-token")
                                .putHeader("X-Okapi-Permissions", "[\"notices.granted\"]")
                                .putHeader(
                                    "X-Okapi-Module-Tokens",
                                    "{\"_\":\"any-module-token\",\""
                                        + TIMER_MODULE
                                        + "\":\"timer-module-token\"}")
                                .end()));
    gw.install("diku", authModule("mod-auth-1.0.0"), auth.url());
    gw.install(
        "diku",
        timerModule(
            TIMER_MODULE,
            every("POST", "/notices", "20", "second")
                .put("modulePermissions", new JsonArray().add("notices.send").add("users.read"))),
        module.url());
    auth.drain();
    clock.advance(Duration.ofSeconds(20));
    List<Recorded> asked = auth.drain();
    assertThat(asked).hasSize(1);
    Recorded filter = asked.get(0);
    assertThat(filter.method() + " " + filter.uri()).isEqualTo("POST /notices");
    assertThat(filter.header("X-Okapi-Filter")).isEqualTo("auth");
    assertThat(filter.header("X-Okapi-Module-Permissions"))
        .isEqualTo("{\"" + TIMER_MODULE + "\":[\"notices.send\",\"users.read\"]}");
    assertThat(filter.header("X-Okapi-Tenant")).isEqualTo("diku");
    assertThat(filter.header("X-Okapi-Token")).isNull();
    Recorded call = module.drain().get(0);
    assertThat(call.header("X-Okapi-Token")).isEqualTo("timer-module-token");
    assertThat(call.header("X-Okapi-Permissions")).isEqualTo("[\"notices.granted\"]");
    assertThat(call.header("X-Okapi-Tenant")).isEqualTo("diku");
  }

  @Test
  void cron_calledAtTheMatchingMinutesInItsZone() {
    gw.install(
        "diku", timerModule(TIMER_MODULE, cron("/reminders", "0 6,18 * * *", "CET")), module.url());
    clock.advanceTo(Instant.parse("2026-03-02T16:59:59Z"));
    assertThat(calls()).as("06:00 CET was the start; next is 18:00 CET").isEmpty();
    clock.advance(Duration.ofSeconds(1));
    assertThat(calls()).containsExactly("POST /reminders");
    clock.advanceTo(Instant.parse("2026-03-03T17:00:00Z"));
    assertThat(calls()).as("06:00 and 18:00 CET the next day").hasSize(2);
  }

  @Test
  void handler_firstMethodAndLegacyPath_asOkapiCalls() {
    gw.install(
        "diku",
        timerModule(
            TIMER_MODULE,
            new JsonObject()
                .put("methods", new JsonArray().add("PUT").add("POST"))
                .put("path", "/legacy/timer")
                .put("unit", "second")
                .put("delay", "30")),
        module.url());
    clock.advance(Duration.ofSeconds(30));
    assertThat(calls()).containsExactly("PUT /legacy/timer");
  }

  @Test
  void patchDelayZero_stopsTheTimer_andResetRestartsIt() {
    gw.install(
        "diku", timerModule(TIMER_MODULE, every("POST", "/notices", "1", "minute")), module.url());
    gw.request()
        .body("{\"delay\":\"0\"}")
        .patch("/_/proxy/tenants/diku/timers/mod-timer_0")
        .then()
        .statusCode(204);
    clock.advance(Duration.ofMinutes(10));
    assertThat(calls()).isEmpty();
    assertThat(clock.pending()).isZero();
    gw.request()
        .body("{}")
        .patch("/_/proxy/tenants/diku/timers/mod-timer_0")
        .then()
        .statusCode(204);
    clock.advance(Duration.ofMinutes(3));
    assertThat(calls()).hasSize(3);
  }

  @Test
  void patchSchedule_replacesTheDescriptorsTiming() {
    gw.install(
        "diku", timerModule(TIMER_MODULE, every("POST", "/notices", "1", "minute")), module.url());
    gw.request()
        .body(
            new JsonObject()
                .put("id", "mod-timer_0")
                .put(
                    "routingEntry",
                    new JsonObject().put("schedule", new JsonObject().put("cron", "30 5 * * *")))
                .encode())
        .patch("/_/proxy/tenants/diku/timers")
        .then()
        .statusCode(204);
    clock.advanceTo(Instant.parse("2026-03-02T05:29:59Z"));
    assertThat(calls()).as("the patch dropped unit and delay").isEmpty();
    clock.advance(Duration.ofSeconds(1));
    assertThat(calls()).containsExactly("POST /notices");
  }

  @Test
  void disablingTheModule_stopsItsTimers_enablingStartsThemAgain() {
    gw.install(
        "diku", timerModule(TIMER_MODULE, every("POST", "/notices", "1", "minute")), module.url());
    clock.advance(Duration.ofMinutes(2));
    assertThat(calls()).hasSize(2);
    gw.request().delete("/_/proxy/tenants/diku/modules/" + TIMER_MODULE).then().statusCode(204);
    clock.advance(Duration.ofMinutes(5));
    assertThat(calls()).isEmpty();
    assertThat(clock.pending()).isZero();
    gw.enable("diku", TIMER_MODULE);
    clock.advance(Duration.ofMinutes(2));
    assertThat(calls()).hasSize(2);
  }

  @Test
  void aChangeThisNodeMissed_runNotCalled_andTheNodeReReadsItsTimers() {
    gw.install(
        "diku", timerModule(TIMER_MODULE, every("POST", "/notices", "1", "minute")), module.url());
    SharedDataTimerStore.create(gw.vertx())
        .await()
        .put(new TimerStore.Patch("diku", "mod-timer_0", new JsonObject().put("delay", "0")))
        .await();
    assertThat(clock.pending()).as("no one told this node").isEqualTo(1);
    clock.advance(Duration.ofMinutes(1));
    assertThat(calls()).as("checked against the store before calling").isEmpty();
    assertThat(clock.pending()).as("re-read: the timer is off now").isZero();
  }

  @Test
  void deletingTheTenant_stopsItsTimers_andForgetsItsChanges() {
    gw.install(
        "diku", timerModule(TIMER_MODULE, every("POST", "/notices", "1", "minute")), module.url());
    gw.request()
        .body("{\"delay\":\"2\",\"unit\":\"minute\"}")
        .patch("/_/proxy/tenants/diku/timers/mod-timer_0")
        .then()
        .statusCode(204);
    gw.request().delete("/_/proxy/tenants/diku").then().statusCode(204);
    clock.advance(Duration.ofMinutes(5));
    assertThat(calls()).isEmpty();
    assertThat(clock.pending()).isZero();
    assertThat(SharedDataTimerStore.create(gw.vertx()).await().all().await()).isEmpty();
  }

  @Test
  void eachTenant_hasItsOwnCalls() {
    gw.createTenant("other");
    gw.install(
        "diku", timerModule(TIMER_MODULE, every("POST", "/notices", "1", "minute")), module.url());
    gw.enable("other", TIMER_MODULE);
    clock.advance(Duration.ofMinutes(1));
    assertThat(module.drain())
        .extracting(r -> r.header("X-Okapi-Tenant"))
        .containsExactlyInAnyOrder("diku", "other");
  }

  @Test
  void failingModule_countedAndCalledAgainOnSchedule() {
    status = 500;
    gw.install(
        "diku", timerModule(TIMER_MODULE, every("POST", "/notices", "1", "minute")), module.url());
    clock.advance(Duration.ofMinutes(2));
    assertThat(calls()).hasSize(2);
    status = 204;
    clock.advance(Duration.ofMinutes(1));
    String metrics = gw.request().get("/_/metrics").then().statusCode(200).extract().asString();
    assertThat(metrics)
        .contains("okapi_timer_calls_total{outcome=\"refused\",tenant=\"diku\"} 2.0")
        .contains("okapi_timer_calls_total{outcome=\"success\",tenant=\"diku\"} 1.0");
  }

  @Test
  void moduleWithoutInstance_runFailsAndIsCounted_nextRunStillScheduled() {
    gw.addModule(timerModule(TIMER_MODULE, every("POST", "/notices", "1", "minute")));
    gw.enable("diku", TIMER_MODULE);
    clock.advance(Duration.ofMinutes(1));
    assertThat(gw.request().get("/_/metrics").then().extract().asString())
        .contains("okapi_timer_calls_total{outcome=\"failed\",tenant=\"diku\"} 1.0");
    gw.deploy(TIMER_MODULE, module.url());
    clock.advance(Duration.ofMinutes(1));
    assertThat(calls()).containsExactly("POST /notices");
  }

  @Test
  void timerInterfaceNotDeclaredSystem_isNoTimer_asInOkapi() {
    JsonObject descriptor = timerModule(TIMER_MODULE, every("POST", "/notices", "1", "minute"));
    descriptor.getJsonArray("provides").getJsonObject(0).remove("interfaceType");
    gw.install("diku", descriptor, module.url());
    clock.advance(Duration.ofMinutes(5));
    assertThat(calls()).isEmpty();
    gw.request()
        .get("/_/proxy/tenants/diku/timers")
        .then()
        .statusCode(200)
        .body(org.hamcrest.Matchers.equalTo("[ ]"));
  }
}
