package io.okapigw.core.timer;

import static io.okapigw.core.timer.TimerFiringTest.START;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.testing.FakeScheduler;
import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.TestModule;
import io.okapigw.core.testing.TestModule.Recorded;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The real mod-circulation descriptor's 13 timers (12 every few minutes, the digital reminders at
 * 00:01 CET): listed as Okapi lists them and called on their schedules. Its requirements are
 * dropped so that it can be enabled alone.
 */
class CirculationTimersTest {

  private static final String ID = "mod-circulation-24.0.0";

  private FakeScheduler clock;
  private GatewayFixture gw;
  private TestModule module;

  @BeforeEach
  void start() throws IOException {
    clock = new FakeScheduler(START);
    gw = new GatewayFixture(GatewayOptions.defaults(0), clock);
    module =
        TestModule.start(
            gw.vertx(),
            router -> router.route().handler(ctx -> ctx.response().setStatusCode(204).end()));
    // a verbatim copy of ../shared/folio/mod-circulation.ModuleDescriptor-template.json
    JsonObject descriptor =
        new JsonObject(
                Files.readString(
                        Path.of(
                            "src",
                            "test",
                            "resources",
                            "folio",
                            "mod-circulation.ModuleDescriptor-template.json"))
                    .replace("${artifactId}-${version}", ID))
            .put("requires", new JsonArray());
    gw.createTenant("diku");
    gw.install("diku", descriptor, module.url());
    assertThat(module.drain()).extracting(Recorded::uri).containsExactly("/_/tenant");
  }

  @AfterEach
  void stop() {
    gw.close();
  }

  @Test
  void thirteenTimers_listedWithOkapisIdsAndEntries() {
    JsonArray timers =
        new JsonArray(
            gw.request()
                .get("/_/proxy/tenants/diku/timers")
                .then()
                .statusCode(200)
                .extract()
                .asString());
    assertThat(timers).hasSize(13);
    Map<String, JsonObject> byId =
        timers.stream()
            .map(JsonObject.class::cast)
            .collect(Collectors.toMap(t -> t.getString("id"), Function.identity()));
    assertThat(byId).containsKeys("mod-circulation_0", "mod-circulation_12");
    JsonObject first = byId.get("mod-circulation_0").getJsonObject("routingEntry");
    assertThat(first.getString("pathPattern"))
        .isEqualTo("/circulation/notice-session-expiration-by-timeout");
    assertThat(first.getString("unit")).isEqualTo("minute");
    assertThat(first.getString("delay")).isEqualTo("3");
    assertThat(first.getJsonArray("modulePermissions")).hasSize(18);
    assertThat(
            byId.get("mod-circulation_12").getJsonObject("routingEntry").getJsonObject("schedule"))
        .isEqualTo(new JsonObject().put("cron", "1 0 * * *").put("zone", "CET"));
    assertThat(timers)
        .allSatisfy(t -> assertThat(((JsonObject) t).getBoolean("modified")).isFalse());
  }

  @Test
  void sevenHours_eachPeriodicTimerCalled420MinutesOverItsPeriodTimes_remindersAt0001Cet() {
    clock.advance(Duration.ofMinutes(420)); // a multiple of every period: 2, 3, 5, 20, 30, 35, 60
    Map<String, Long> calls =
        module.drain().stream()
            .collect(Collectors.groupingBy(Recorded::uri, Collectors.counting()));
    assertThat(calls)
        .containsEntry("/circulation/notice-session-expiration-by-timeout", 140L)
        .containsEntry("/circulation/actual-cost-expiration-by-timeout", 21L)
        .containsEntry("/circulation/loan-scheduled-notices-processing", 84L)
        .containsEntry("/circulation/request-scheduled-notices-processing", 210L)
        .containsEntry("/circulation/scheduled-anonymize-processing", 7L)
        .containsEntry("/circulation/scheduled-age-to-lost", 14L)
        .containsEntry("/circulation/scheduled-age-to-lost-fee-charging", 12L)
        .doesNotContainKey("/circulation/scheduled-digital-reminders-processing");
    assertThat(calls.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(1335);
    clock.advanceTo(Instant.parse("2026-03-02T23:00:59Z"));
    module.drain();
    clock.advance(Duration.ofSeconds(1));
    assertThat(module.drain())
        .extracting(Recorded::uri)
        .contains("/circulation/scheduled-digital-reminders-processing");
  }
}
