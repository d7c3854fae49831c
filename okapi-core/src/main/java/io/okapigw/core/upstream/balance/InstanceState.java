package io.okapigw.core.upstream.balance;

import io.okapigw.core.routing.Endpoint;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What one node has learned of one instance of one module: its calls in flight, how fast it answers
 * ({@link Latency}), whether it has stalled (calls in flight and no answer for {@code
 * proxy.outlier.stall}: out of the choice until it answers again), its consecutive failures, and
 * whether it is ejected and until when. An ejection lasts {@code ejection × 2^(level - 1)}, at most
 * {@code maxEjection}; the level grows with each ejection of an instance that failed again on its
 * return (it is on probation until a call succeeds) and falls by one for each {@code maxEjection}
 * it then stays well. Times are {@code nanoTime}-like readings of the balancer's clock.
 * Thread-safe: calls of every event loop meet here; only a change of state takes the lock.
 */
final class InstanceState {

  final Endpoint endpoint;
  final AtomicInteger outstanding = new AtomicInteger();
  private final Latency latency = new Latency();
  private volatile boolean ejected;
  private volatile long ejectedUntil;

  /** When its calls in flight last went from none to one. */
  private volatile long busySince;

  /** When it last answered anything: a call (whatever the status) or a check. */
  private volatile long lastAnswer;

  /** Calls in flight, none answered for {@code proxy.outlier.stall}: out until it answers. */
  private volatile boolean stalled;

  /** Whether a success has anything to reset: the fast path of every answered call reads it. */
  private volatile boolean dirty;

  /** Back from an ejection, no success yet: one call at a time, and one failure ejects it again. */
  private volatile boolean probation;

  /** Whether and when it last broke HTTP (an answer nobody asked for). */
  private volatile boolean brokeProtocol;

  private volatile long brokeAt;

  private int consecutive;
  private long lastFailure;
  private int level;
  private long ejections;

  InstanceState(Endpoint endpoint, long now) {
    this.endpoint = endpoint;
    this.lastAnswer = now;
    this.busySince = now;
  }

  boolean ejected(long now) {
    return ejected && now - ejectedUntil < 0;
  }

  /**
   * @return whether calls avoid the instance now: it is ejected or stalled, or back on probation
   *     with a call in flight already (a burst of calls to an instance still dead would all fail at
   *     once)
   */
  boolean avoided(long now) {
    return stalled || ejected(now) || probation && outstanding.get() > 0;
  }

  /** A call goes to the instance. */
  void started(long now) {
    if (outstanding.getAndIncrement() == 0) {
      busySince = now;
    }
  }

  /**
   * @return how long the instance has had calls in flight without answering any: 0 when none is in
   *     flight
   */
  long silentFor(long now) {
    if (outstanding.get() == 0) {
      return 0;
    }
    long since = busySince - lastAnswer > 0 ? busySince : lastAnswer;
    return Math.max(0, now - since);
  }

  /**
   * @return whether the instance has gone {@code stall} or longer without answering any of its
   *     calls in flight ({@code stall} 0: never)
   */
  boolean silentPast(long now, long stall) {
    return stall > 0 && silentFor(now) >= stall;
  }

  /**
   * @return whether it has stalled: out of the choice until it answers
   */
  boolean stalled() {
    return stalled;
  }

  /**
   * Marks the instance stalled.
   *
   * @return whether it was not before
   */
  synchronized boolean stall() {
    if (stalled) {
      return false;
    }
    stalled = true;
    return true;
  }

  /**
   * The instance answered (a call, whatever its status, or a check): it has not stalled.
   *
   * @return whether it had
   */
  boolean answered(long now) {
    lastAnswer = now;
    if (!stalled) {
      return false;
    }
    synchronized (this) {
      boolean was = stalled;
      stalled = false;
      return was;
    }
  }

  /**
   * @return what a call to it costs now, the lower the better: its latency (its {@link Latency} or
   *     how long it has been silent, whichever is longer) times its calls in flight plus this one;
   *     an instance never measured with calls in flight costs more than any measured one
   */
  double cost(long now, long decay) {
    double estimate = Math.max(latency.estimate(now, decay), silentFor(now));
    int pending = outstanding.get();
    return estimate == 0 && pending != 0 ? Latency.PENALTY + pending : estimate * (pending + 1);
  }

  /** An answer came {@code rtt} after the call went. */
  void observe(long now, long rtt, long decay) {
    latency.observe(now, rtt, decay);
  }

  /** A call got no answer for {@code waited}: the instance is at least that slow. */
  void atLeast(long now, long waited, long decay) {
    latency.atLeast(now, waited, decay);
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

  /** The instance sent bytes that answer no request: it broke HTTP. */
  void brokeProtocol(long now) {
    brokeAt = now;
    brokeProtocol = true;
  }

  /**
   * @return whether it broke HTTP less than {@code period} ago: each of its calls then goes on a
   *     connection of its own, closed after it
   */
  boolean brokeProtocolWithin(long now, long period) {
    return brokeProtocol && now - brokeAt < period;
  }

  /**
   * An active check found the instance answering: its ejection ends now (it stays on probation),
   * unless it broke HTTP lately.
   */
  synchronized void takeBack(long now) {
    // a check's answer says nothing of stray answers: such an ejection runs its course
    if (ejected(now) && !brokeProtocolWithin(now, Balancer.PROTOCOL_PROBATION.toNanos())) {
      ejectedUntil = now;
    }
  }

  /**
   * @return what is known of the instance, for {@code /_/discovery/health}
   */
  synchronized InstanceView view(long now, long stall, long decay) {
    boolean out = ejected(now);
    return new InstanceView(
        out,
        out ? (ejectedUntil - now) / 1_000_000 : 0,
        consecutive,
        ejections,
        outstanding.get(),
        probation && !out,
        stalled || silentPast(now, stall),
        latency.estimate(now, decay) / 1e6);
  }
}
