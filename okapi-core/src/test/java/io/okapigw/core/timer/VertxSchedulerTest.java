package io.okapigw.core.timer;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The production scheduler: waits on Vert.x timers, at most a short while at a time, then reads the
 * wall clock again; a task runs once the clock has reached its instant, not before. The test moves
 * the clock instead of waiting for it.
 */
class VertxSchedulerTest {

  private static final Instant START = Instant.parse("2026-03-02T05:00:00Z");

  private Vertx vertx;
  private MovableClock clock;
  private VertxScheduler scheduler;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    clock = new MovableClock();
    scheduler = new VertxScheduler(vertx, clock, Duration.ofMillis(5));
  }

  @AfterEach
  void stop() {
    vertx.close().await();
  }

  /** A wall clock the test sets; it says when it has been read a number of times. */
  private static final class MovableClock extends Clock {

    private volatile Instant now = START;
    private final AtomicInteger reads = new AtomicInteger();
    private final Promise<Void> readFiveTimes = Promise.promise();

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      if (reads.incrementAndGet() == 5) {
        readFiveTimes.tryComplete();
      }
      return now;
    }
  }

  private static Future<Void> ran(Promise<Instant> promise, Instant at) {
    promise.tryComplete(at);
    return Future.succeededFuture();
  }

  @Test
  void task_runsOnlyOnceTheWallClockHasReachedItsInstant() throws Exception {
    Promise<Instant> ran = Promise.promise();
    Instant due = START.plus(Duration.ofDays(1));
    scheduler.at(due, () -> ran(ran, clock.instant()));
    clock.readFiveTimes.future().await(1, TimeUnit.MINUTES);
    assertThat(ran.future().isComplete()).as("woken several times, a day early").isFalse();
    clock.now = due;
    assertThat(ran.future().await(1, TimeUnit.MINUTES)).isEqualTo(due);
  }

  @Test
  void cancelledTask_neverRuns() throws Exception {
    AtomicBoolean cancelledRan = new AtomicBoolean();
    Scheduler.Cancellable cancelled =
        scheduler.at(
            START.plusSeconds(1),
            () -> {
              cancelledRan.set(true);
              return Future.succeededFuture();
            });
    Promise<Instant> later = Promise.promise();
    scheduler.at(START.plusSeconds(2), () -> ran(later, clock.instant()));
    cancelled.cancel();
    clock.now = START.plusSeconds(2);
    later.future().await(1, TimeUnit.MINUTES);
    assertThat(cancelledRan).as("due before the task that ran").isFalse();
  }

  @Test
  void taskAlreadyDue_runsAtOnce() throws Exception {
    Promise<Instant> ran = Promise.promise();
    scheduler.at(START.minusSeconds(30), () -> ran(ran, clock.instant()));
    assertThat(ran.future().await(1, TimeUnit.MINUTES)).isEqualTo(START);
  }

  @Test
  void system_readsTheSystemClock() {
    Instant before = Instant.now();
    assertThat(Scheduler.system(vertx).now()).isBetween(before, Instant.now());
  }
}
