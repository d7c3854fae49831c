package io.okapigw.core.upstream.balance;

import io.okapigw.core.routing.Endpoint;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What one node has learned of one instance of one module: its calls in flight, its consecutive
 * failures, and whether it is ejected and until when. An ejection lasts {@code ejection × 2^(level
 * - 1)}, at most {@code maxEjection}; the level grows with each ejection of an instance that failed
 * again on its return (it is on probation until a call succeeds) and falls by one for each {@code
 * maxEjection} it then stays well. Times are {@code nanoTime}-like readings of the balancer's
 * clock. Thread-safe: calls of every event loop meet here; only a change of state takes the lock.
 */
final class InstanceState {

  final Endpoint endpoint;
  final AtomicInteger outstanding = new AtomicInteger();
  private volatile boolean ejected;
  private volatile long ejectedUntil;

  /** Whether a success has anything to reset: the fast path of every answered call reads it. */
  private volatile boolean dirty;

  /** Back from an ejection, no success yet: one call at a time, and one failure ejects it again. */
  private volatile boolean probation;

  private int consecutive;
  private long lastFailure;
  private int level;
  private long ejections;

  InstanceState(Endpoint endpoint) {
    this.endpoint = endpoint;
  }

  boolean ejected(long now) {
    return ejected && now - ejectedUntil < 0;
  }

  /**
   * @return whether calls avoid the instance now: it is ejected, or back on probation with a call
   *     in flight already (a burst of calls to an instance still dead would all fail at once)
   */
  boolean avoided(long now) {
    return ejected(now) || probation && outstanding.get() > 0;
  }

  /**
   * A call to the instance failed.
   *
   * @return whether it should be ejected now (the balancer decides whether it may be)
   */
  synchronized boolean failed(long now, BalanceOptions options) {
    if (options.failures() == 0 || ejected(now)) {
      return false;
    }
    dirty = true;
    if (probation) {
      return true;
    }
    if (consecutive > 0 && now - lastFailure > options.window().toNanos()) {
      consecutive = 0;
    }
    lastFailure = now;
    consecutive++;
    return consecutive >= options.failures();
  }

  /** A call to the instance succeeded: the failures are forgotten, a returned one is back. */
  void succeeded(long now) {
    if (!dirty) {
      return;
    }
    synchronized (this) {
      if (ejected(now)) {
        return;
      }
      consecutive = 0;
      probation = false;
      dirty = false;
    }
  }

  /**
   * Ejects the instance: for longer than last time if it failed again right on its return.
   *
   * @return how long, in nanoseconds
   */
  synchronized long eject(long now, BalanceOptions options) {
    if (!probation && ejections > 0) {
      long wellFor = now - ejectedUntil;
      level = (int) Math.max(0, level - wellFor / options.maxEjection().toNanos());
    }
    level++;
    long base = options.ejection().toNanos();
    long max = options.maxEjection().toNanos();
    long duration = base;
    for (int i = 1; i < level && duration < max; i++) {
      duration *= 2;
    }
    duration = Math.min(duration, max);
    ejectedUntil = now + duration;
    ejected = true;
    probation = true;
    dirty = true;
    consecutive = 0;
    ejections++;
    return duration;
  }

  /**
   * An active check found the instance answering: its ejection ends now (it stays on probation).
   */
  synchronized void takeBack(long now) {
    if (ejected(now)) {
      ejectedUntil = now;
    }
  }

  /**
   * @return what is known of the instance, for {@code /_/discovery/health}
   */
  synchronized InstanceView view(long now) {
    boolean out = ejected(now);
    return new InstanceView(
        out,
        out ? (ejectedUntil - now) / 1_000_000 : 0,
        consecutive,
        ejections,
        outstanding.get(),
        probation && !out);
  }
}
