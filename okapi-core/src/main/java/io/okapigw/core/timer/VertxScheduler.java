package io.okapigw.core.timer;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;

/**
 * Wake-ups on Vert.x timers, time from a wall clock. A wait is at most {@link #MAX_WAIT}, then the
 * clock is read again: Vert.x timers run on the monotonic clock, so a daily schedule would
 * otherwise drift by whatever the wall clock is corrected in a day.
 */
final class VertxScheduler implements Scheduler {

  static final Duration MAX_WAIT = Duration.ofMinutes(1);

  private final Vertx vertx;
  private final Clock clock;
  private final long maxWaitMillis;

  VertxScheduler(Vertx vertx, Clock clock) {
    this(vertx, clock, MAX_WAIT);
  }

  /**
   * @param maxWait the longest wait before the clock is read again
   */
  VertxScheduler(Vertx vertx, Clock clock, Duration maxWait) {
    this.vertx = vertx;
    this.clock = clock;
    this.maxWaitMillis = maxWait.toMillis();
  }

  @Override
  public Instant now() {
    return clock.instant();
  }

  @Override
  public Cancellable at(Instant at, Supplier<Future<Void>> task) {
    Wait wait = new Wait(at, task);
    wait.arm();
    return wait;
  }

  /** One scheduled task; re-armed until the clock has reached its instant. */
  private final class Wait implements Cancellable {

    private final Instant at;
    private final Supplier<Future<Void>> task;
    private volatile long timerId = -1;
    private volatile boolean cancelled;

    Wait(Instant at, Supplier<Future<Void>> task) {
      this.at = at;
      this.task = task;
    }

    void arm() {
      long millis = Math.min(Duration.between(now(), at).toMillis(), maxWaitMillis);
      timerId = vertx.setTimer(Math.max(1, millis), id -> wake());
    }

    private void wake() {
      if (cancelled) {
        return;
      }
      if (now().isBefore(at)) {
        arm();
      } else {
        task.get();
      }
    }

    @Override
    public void cancel() {
      cancelled = true;
      vertx.cancelTimer(timerId);
    }
  }
}
