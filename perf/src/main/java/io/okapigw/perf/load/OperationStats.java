package io.okapigw.perf.load;

import io.okapigw.perf.kit.latency.Latencies;
import io.okapigw.perf.kit.latency.LatencyStats;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Latencies and errors of one operation (check-out or check-in) in one phase. Every attempt is
 * counted and timed, failed ones too (as JMeter does). Thread-safe.
 */
final class OperationStats {

  private final String name;
  private final Latencies latencies;
  private final AtomicLong errors = new AtomicLong();

  OperationStats(String name) {
    this(name, new Latencies());
  }

  private OperationStats(String name, Latencies latencies) {
    this.name = name;
    this.latencies = latencies;
  }

  void record(long nanos, boolean ok) {
    latencies.record(nanos);
    if (!ok) {
      errors.incrementAndGet();
    }
  }

  /**
   * @return both operations' figures as one, named {@code name}
   */
  static OperationStats merge(String name, OperationStats a, OperationStats b) {
    OperationStats all =
        new OperationStats(name, Latencies.merge(List.of(a.latencies, b.latencies)));
    all.errors.set(a.errors.get() + b.errors.get());
    return all;
  }

  /**
   * @param seconds the phase's length, for the rate
   */
  OperationSummary summary(double seconds) {
    LatencyStats stats = latencies.stats();
    return new OperationSummary(
        name,
        stats.count(),
        errors.get(),
        seconds > 0 ? stats.count() / seconds : 0,
        stats.mean(),
        stats.p50(),
        stats.p90(),
        stats.p99(),
        stats.max());
  }
}
