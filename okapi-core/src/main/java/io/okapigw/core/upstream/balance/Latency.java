package io.okapigw.core.upstream.balance;

/**
 * How fast an instance answers: a peak-sensitive moving average of its calls' round trips, as
 * Finagle's and Linkerd's peak EWMA balancers keep it. A round trip longer than the estimate
 * becomes the estimate at once; shorter ones bring it down, weighed by the time since the last
 * observation ({@code decay}, the time constant: observations are unevenly spaced); and with
 * nothing observed the estimate falls towards zero, so that an instance left alone for being slow
 * is tried again. Nanoseconds of the balancer's clock. Thread-safe.
 */
final class Latency {

  /**
   * The cost of an instance with calls in flight but no latency known yet (Finagle's {@code
   * Penalty}): above any measured one.
   */
  static final double PENALTY = (double) (Long.MAX_VALUE >> 16);

  private double estimate;
  private long stamp;
  private boolean started;

  /**
   * @return the estimate now, in nanoseconds: 0 until a round trip is observed
   */
  synchronized double estimate(long now, long decay) {
    decayTo(now, decay);
    return estimate;
  }

  /** A call was answered {@code rtt} nanoseconds after it went. */
  synchronized void observe(long now, long rtt, long decay) {
    double weight = weight(now, decay);
    estimate = rtt > estimate ? rtt : estimate * weight + rtt * (1.0 - weight);
    stamp = now;
    started = true;
  }

  /** A call went unanswered for {@code waited}: the estimate is at least that. */
  synchronized void atLeast(long now, long waited, long decay) {
    decayTo(now, decay);
    if (waited > estimate) {
      estimate = waited;
    }
    stamp = now;
    started = true;
  }

  /** What Finagle's {@code observe(0)} on a read does: the estimate decays with the time passed. */
  private void decayTo(long now, long decay) {
    if (started) {
      estimate *= weight(now, decay);
      stamp = now;
    }
  }

  private double weight(long now, long decay) {
    if (!started) {
      return 0;
    }
    return Math.exp(-Math.max(0, now - stamp) / (double) decay);
  }
}
