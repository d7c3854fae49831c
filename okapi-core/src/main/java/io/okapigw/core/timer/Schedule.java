package io.okapigw.core.timer;

import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import io.vertx.core.json.JsonObject;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Map;
import java.util.Optional;

/**
 * When a timer fires, read from its routing entry as Okapi 6.1.5 reads it: {@code unit} and {@code
 * delay} (both present) win, a zero or negative delay disables the timer; otherwise {@code
 * schedule: {cron, zone}} (a 5-field UNIX crontab line, zone default UTC, parsed by cron-utils as
 * Okapi does); otherwise the timer is disabled. Unlike Okapi, a period is at least {@link
 * #MIN_PERIOD} (Okapi's units include {@code millisecond}, and a timer PATCHed to 1 ms called its
 * module a thousand times a second): a shorter one is refused ({@link TooFrequent}).
 *
 * <p>The instants are the same on every node and across restarts, so nodes agree on which run is
 * due: a cron schedule's are its matching minutes; a {@code unit}/{@code delay} timer's are the
 * multiples of the period since the epoch, shifted by a phase derived from the timer's tenant and
 * id (so that a tenant's many timers do not all fire at the same instant).
 */
abstract class Schedule {

  /** A disabled timer. */
  static final Schedule OFF = new Off();

  /** The shortest period of a {@code unit}/{@code delay} timer. */
  static final Duration MIN_PERIOD = Duration.ofSeconds(1);

  private static final Map<String, Long> UNITS =
      Map.of(
          "millisecond",
          1L,
          "second",
          1_000L,
          "minute",
          60_000L,
          "hour",
          3_600_000L,
          "day",
          86_400_000L);
  private static final CronParser CRON =
      new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));

  /**
   * @param entry a {@code _timer} handler, as in a descriptor or a PATCH
   * @return its schedule
   * @throws IllegalArgumentException naming the bad field: an unknown unit, a delay that is not a
   *     whole number, a cron line or zone that does not parse; {@link TooFrequent} for a period
   *     under {@link #MIN_PERIOD}
   */
  static Schedule of(JsonObject entry) {
    String unit = text(entry, "unit");
    String delay = text(entry, "delay");
    Long factor = unit == null ? null : UNITS.get(unit);
    if (unit != null && factor == null) {
      throw new IllegalArgumentException(
          "unit must be one of millisecond, second, minute, hour," + " day; was " + unit);
    }
    long amount = delay == null ? 0 : parseDelay(delay);
    if (unit != null && delay != null) {
      return amount > 0 ? every(Duration.ofMillis(amount * factor)) : OFF;
    }
    Object schedule = entry.getValue("schedule");
    if (schedule == null) {
      return OFF;
    }
    if (!(schedule instanceof JsonObject cron)) {
      throw new IllegalArgumentException("schedule must be an object {cron, zone}");
    }
    return cron(cron);
  }

  /**
   * @return every {@code period}
   * @throws TooFrequent if it is under {@link #MIN_PERIOD}
   */
  static Schedule every(Duration period) {
    if (period.compareTo(MIN_PERIOD) < 0) {
      throw new TooFrequent(period);
    }
    return new Every(period);
  }

  /** A {@code unit}/{@code delay} period under {@link #MIN_PERIOD}. */
  static final class TooFrequent extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    TooFrequent(Duration period) {
      super(
          "a timer's period must be at least 1 second (unit and delay), was "
              + period.toMillis()
              + " ms");
    }
  }

  private static Schedule cron(JsonObject schedule) {
    for (String field : schedule.fieldNames()) {
      if (!field.equals("cron") && !field.equals("zone")) {
        throw new IllegalArgumentException(
            "schedule: unknown field " + field + " (only cron and zone)");
      }
    }
    String zoneName = text(schedule, "zone");
    ZoneId zone;
    try {
      zone = zoneName == null ? ZoneOffset.UTC : ZoneId.of(zoneName);
    } catch (DateTimeException e) {
      throw new IllegalArgumentException("schedule: unknown zone " + zoneName, e);
    }
    String spec = text(schedule, "cron");
    if (spec == null) {
      return OFF; // as Okapi: a schedule without cron never fires
    }
    try {
      return new Cron(spec, ExecutionTime.forCron(CRON.parse(spec)), zone);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("schedule: bad cron '" + spec + "': " + e.getMessage(), e);
    }
  }

  private static String text(JsonObject json, String field) {
    Object value = json.getValue(field);
    if (value == null || value instanceof String) {
      return (String) value;
    }
    if (value instanceof Number number && !(value instanceof Double || value instanceof Float)) {
      return String.valueOf(number.longValue());
    }
    throw new IllegalArgumentException(field + " must be a string, was " + value);
  }

  private static long parseDelay(String delay) {
    try {
      return Integer.parseInt(delay.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("delay must be a whole number, was '" + delay + "'", e);
    }
  }

  /**
   * @return whether the timer fires at all
   */
  abstract boolean active();

  /**
   * @param after an instant
   * @param phaseSeed spreads periodic timers (same seed, same instants)
   * @return the first instant this schedule fires strictly after {@code after}; empty if never
   */
  abstract Optional<Instant> nextAfter(Instant after, long phaseSeed);

  /** Never fires. */
  private static final class Off extends Schedule {

    @Override
    boolean active() {
      return false;
    }

    @Override
    Optional<Instant> nextAfter(Instant after, long phaseSeed) {
      return Optional.empty();
    }

    @Override
    public String toString() {
      return "off";
    }
  }

  /** Every {@code period}, at the multiples of it since the epoch plus a phase. */
  private static final class Every extends Schedule {

    private final long periodMillis;

    Every(Duration period) {
      this.periodMillis = period.toMillis();
    }

    @Override
    boolean active() {
      return true;
    }

    @Override
    Optional<Instant> nextAfter(Instant after, long phaseSeed) {
      long phase = Math.floorMod(phaseSeed, periodMillis);
      long slot = Math.floorDiv(after.toEpochMilli() - phase, periodMillis) + 1;
      return Optional.of(Instant.ofEpochMilli(slot * periodMillis + phase));
    }

    @Override
    public String toString() {
      return "every " + Duration.ofMillis(periodMillis);
    }
  }

  /** At the minutes a crontab line matches, in a zone. */
  private static final class Cron extends Schedule {

    private final String spec;
    private final ExecutionTime times;
    private final ZoneId zone;

    Cron(String spec, ExecutionTime times, ZoneId zone) {
      this.spec = spec;
      this.times = times;
      this.zone = zone;
    }

    @Override
    boolean active() {
      return true;
    }

    @Override
    Optional<Instant> nextAfter(Instant after, long phaseSeed) {
      return times
          .nextExecution(ZonedDateTime.ofInstant(after, zone))
          .map(ZonedDateTime::toInstant);
    }

    @Override
    public String toString() {
      return "cron '" + spec + "' " + zone;
    }
  }
}
