package io.okapigw.core.timer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Reading a timer's schedule as Okapi 6.1.5 reads it, and the instants it fires at. */
class ScheduleTest {

  /** A Monday, 06:00 in CET. */
  private static final Instant MONDAY = Instant.parse("2026-03-02T05:00:00Z");

  private static JsonObject every(String delay, String unit) {
    return new JsonObject().put("delay", delay).put("unit", unit);
  }

  private static JsonObject cron(String cron, String zone) {
    JsonObject schedule = new JsonObject().put("cron", cron);
    return new JsonObject().put("schedule", zone == null ? schedule : schedule.put("zone", zone));
  }

  private static List<Instant> runs(Schedule schedule, Instant from, int count, long seed) {
    List<Instant> runs = new ArrayList<>();
    Instant at = from;
    for (int i = 0; i < count; i++) {
      at = schedule.nextAfter(at, seed).orElseThrow();
      runs.add(at);
    }
    return runs;
  }

  @Test
  void unitAndDelay_everyPeriod_atTheSameInstantsForTheSameSeed() {
    Schedule fiveMinutes = Schedule.of(every("5", "minute"));
    List<Instant> runs = runs(fiveMinutes, MONDAY, 3, 42);
    assertThat(Duration.between(runs.get(0), runs.get(1))).isEqualTo(Duration.ofMinutes(5));
    assertThat(Duration.between(runs.get(1), runs.get(2))).isEqualTo(Duration.ofMinutes(5));
    assertThat(runs.get(0)).isAfter(MONDAY).isBeforeOrEqualTo(MONDAY.plus(Duration.ofMinutes(5)));
    assertThat(fiveMinutes.nextAfter(runs.get(0).minusMillis(1), 42)).contains(runs.get(0));
    assertThat(fiveMinutes.nextAfter(runs.get(0), 42)).as("strictly after").contains(runs.get(1));
    assertThat(Schedule.of(every("5", "minute")).nextAfter(MONDAY, 42))
        .as("another node, same instants")
        .contains(runs.get(0));
    assertThat(fiveMinutes.nextAfter(MONDAY, 43))
        .as("another timer, another phase")
        .isNotEqualTo(fiveMinutes.nextAfter(MONDAY, 42));
  }

  @Test
  void unitAndDelay_eachUnit() {
    assertThat(period(every("1500", "millisecond"))).isEqualTo(Duration.ofMillis(1500));
    assertThat(period(every("20", "second"))).isEqualTo(Duration.ofSeconds(20));
    assertThat(period(every("3", "minute"))).isEqualTo(Duration.ofMinutes(3));
    assertThat(period(every("2", "hour"))).isEqualTo(Duration.ofHours(2));
    assertThat(period(new JsonObject().put("delay", 1).put("unit", "day")))
        .as("a number as delay, as Jackson reads it into Okapi's string")
        .isEqualTo(Duration.ofDays(1));
  }

  /** Okapi's units include millisecond; a period under a second is refused, naming the minimum. */
  @Test
  void periodUnderOneSecond_refused() {
    assertThatThrownBy(() -> Schedule.of(every("999", "millisecond")))
        .isInstanceOf(Schedule.TooFrequent.class)
        .hasMessageContaining("at least 1 second")
        .hasMessageContaining("999 ms");
    assertThat(period(every("1000", "millisecond"))).isEqualTo(Duration.ofSeconds(1));
  }

  private static Duration period(JsonObject entry) {
    List<Instant> runs = runs(Schedule.of(entry), MONDAY, 2, 7);
    return Duration.between(runs.get(0), runs.get(1));
  }

  @Test
  void zeroOrNegativeDelay_orDelayWithoutUnit_orNothing_isOff() {
    assertThat(Schedule.of(every("0", "minute")).active()).isFalse();
    assertThat(Schedule.of(every("-5", "minute")).active()).isFalse();
    assertThat(Schedule.of(new JsonObject().put("delay", "5")).active()).isFalse();
    assertThat(Schedule.of(new JsonObject().put("unit", "second")).active()).isFalse();
    assertThat(Schedule.of(new JsonObject()).active()).isFalse();
    assertThat(
            Schedule.of(new JsonObject().put("schedule", new JsonObject().put("zone", "CET")))
                .active())
        .as("a schedule without cron, as Okapi")
        .isFalse();
    assertThat(Schedule.OFF.nextAfter(MONDAY, 1)).isEmpty();
  }

  @Test
  void unitAndDelay_winOverSchedule_asInOkapi() {
    JsonObject both =
        every("20", "second").put("schedule", new JsonObject().put("cron", "0 0 * * *"));
    assertThat(period(both)).isEqualTo(Duration.ofSeconds(20));
    JsonObject offAndCron =
        every("0", "second").put("schedule", new JsonObject().put("cron", "0 0 * * *"));
    assertThat(Schedule.of(offAndCron).active()).as("delay 0 disables, cron or not").isFalse();
  }

  @Test
  void cron_inItsZone_strictlyAfter() {
    Schedule sixAndSix = Schedule.of(cron("0 6,18 * * *", "CET"));
    assertThat(runs(sixAndSix, MONDAY, 3, 0))
        .containsExactly(
            Instant.parse("2026-03-02T17:00:00Z"),
            Instant.parse("2026-03-03T05:00:00Z"),
            Instant.parse("2026-03-03T17:00:00Z"));
    assertThat(Schedule.of(cron("0 6,18 * * *", null)).nextAfter(MONDAY, 0))
        .as("UTC by default")
        .contains(Instant.parse("2026-03-02T06:00:00Z"));
  }

  @Test
  void cron_okapisExamples_weekdayNamesAndSeven() {
    assertThat(Schedule.of(cron("0 0 * * sun", null)).nextAfter(MONDAY, 0))
        .contains(Instant.parse("2026-03-08T00:00:00Z"));
    assertThat(Schedule.of(cron("0 0 * * 7", null)).nextAfter(MONDAY, 0))
        .contains(Instant.parse("2026-03-08T00:00:00Z"));
    assertThat(Schedule.of(cron("15 */2 * * *", null)).nextAfter(MONDAY, 0))
        .contains(Instant.parse("2026-03-02T06:15:00Z"));
    assertThat(Schedule.of(cron("1 0 * * *", "CET")).nextAfter(MONDAY, 0))
        .as("mod-circulation's digital reminders")
        .contains(Instant.parse("2026-03-02T23:01:00Z"));
  }

  @Test
  void badInput_namesTheField() {
    assertThatThrownBy(() -> Schedule.of(every("1", "week")))
        .hasMessage("unit must be one of millisecond, second, minute, hour, day; was week");
    assertThatThrownBy(() -> Schedule.of(every("x", "second")))
        .hasMessage("delay must be a whole number, was 'x'");
    assertThatThrownBy(() -> Schedule.of(cron("bad", null)))
        .hasMessageStartingWith("schedule: bad cron 'bad': Cron expression contains 1 parts");
    assertThatThrownBy(() -> Schedule.of(cron("61 * * * *", null)))
        .hasMessageContaining("Value 61 not in range [0, 59]");
    assertThatThrownBy(() -> Schedule.of(cron("* * * * *", "Mars/Base")))
        .hasMessage("schedule: unknown zone Mars/Base");
    assertThatThrownBy(
            () ->
                Schedule.of(
                    new JsonObject()
                        .put(
                            "schedule",
                            new JsonObject().put("cron", "* * * * *").put("when", "now"))))
        .hasMessage("schedule: unknown field when (only cron and zone)");
    assertThatThrownBy(() -> Schedule.of(new JsonObject().put("schedule", "0 * * * *")))
        .hasMessage("schedule must be an object {cron, zone}");
  }

  @Test
  void timerId_productAndSeq_asOkapi() {
    assertThat(TimerId.productOf("mod-circulation-24.4.0-SNAPSHOT.123"))
        .isEqualTo("mod-circulation");
    assertThat(TimerId.productOf("mod-foo")).isEqualTo("mod-foo");
    assertThat(TimerId.parse("mod-circulation_12")).contains(new TimerId("mod-circulation", 12));
    assertThat(TimerId.parse("mod_foo_2")).contains(new TimerId("mod_foo", 2));
    assertThat(TimerId.parse("foo")).isEmpty();
    assertThat(TimerId.parse("mod-foo_x")).isEmpty();
    assertThat(TimerId.parse("_1")).isEmpty();
    assertThat(new TimerId("mod-foo", 3)).hasToString("mod-foo_3");
  }
}
