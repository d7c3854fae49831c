package io.okapigw.core.timer;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.function.Supplier;

/**
 * Time for module timers: the current instant and wake-ups at given instants. {@link
 * #system(Vertx)} reads the system clock and waits on Vert.x timers; tests hand in a fake that they
 * advance instead of sleeping.
 */
public interface Scheduler {

  /**
   * @return a scheduler on the system clock (UTC) and Vert.x timers
   */
  static Scheduler system(Vertx vertx) {
    return new VertxScheduler(vertx, Clock.systemUTC());
  }

  /**
   * @return the current instant
   */
  Instant now();

  /**
   * @return {@link #now()} as a clock (UTC), for code that reads the time but schedules nothing
   *     here (a deadline), so that a test's fake scheduler moves it too
   */
  default Clock clock() {
    return new SchedulerClock(this, ZoneOffset.UTC);
  }

  /**
   * Runs {@code task} once, when {@link #now()} has reached {@code at} (at once if it has).
   *
   * @param at when to run
   * @param task the work; its future says when it is done (a fake scheduler waits for it)
   * @return a handle that cancels the task if it has not run yet
   */
  Cancellable at(Instant at, Supplier<Future<Void>> task);

  /** A scheduled task that can be called off. */
  @FunctionalInterface
  interface Cancellable {
    /** Cancels the task; no effect once it has run. */
    void cancel();
  }

  /** A scheduler's time as a clock in a zone. */
  final class SchedulerClock extends Clock {

    private final Scheduler scheduler;
    private final ZoneId zone;

    private SchedulerClock(Scheduler scheduler, ZoneId zone) {
      this.scheduler = scheduler;
      this.zone = zone;
    }

    @Override
    public Instant instant() {
      return scheduler.now();
    }

    @Override
    public ZoneId getZone() {
      return zone;
    }

    @Override
    public Clock withZone(ZoneId newZone) {
      return new SchedulerClock(scheduler, newZone);
    }
  }
}
