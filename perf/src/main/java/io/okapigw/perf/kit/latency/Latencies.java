package io.okapigw.perf.kit.latency;

import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * Latencies recorded from any thread, the one recorder of the load driver and the benchmarks.
 * Count, mean and max are exact; percentiles come from an HdrHistogram in microseconds with 3
 * significant digits (within 0.1%), so memory stays small however many are recorded.
 */
public final class Latencies {

  private final Histogram micros = new Histogram(3);
  private long count;
  private long sumNanos;
  private long maxNanos;

  /**
   * @return latencies holding {@code nanos}
   */
  public static Latencies of(long... nanos) {
    Latencies latencies = new Latencies();
    for (long n : nanos) {
      latencies.record(n);
    }
    return latencies;
  }

  /**
   * @return every latency of {@code parts} together
   */
  public static Latencies merge(List<Latencies> parts) {
    Latencies all = new Latencies();
    parts.forEach(all::add);
    return all;
  }

  /**
   * @param nanos one latency in nanoseconds
   */
  public synchronized void record(long nanos) {
    micros.recordValue(Math.max(1, nanos / 1000));
    count++;
    sumNanos += nanos;
    maxNanos = Math.max(maxNanos, nanos);
  }

  private synchronized void add(Latencies other) {
    synchronized (other) {
      micros.add(other.micros);
      count += other.count;
      sumNanos += other.sumNanos;
      maxNanos = Math.max(maxNanos, other.maxNanos);
    }
  }

  /**
   * @return how many were recorded
   */
  public synchronized long count() {
    return count;
  }

  /**
   * @return count, mean, p50, p90, p99 and max in milliseconds (zeros if none)
   */
  public synchronized LatencyStats stats() {
    if (count == 0) {
      return new LatencyStats(0, 0, 0, 0, 0, 0);
    }
    return new LatencyStats(
        count,
        sumNanos / 1e6 / count,
        percentile(50),
        percentile(90),
        percentile(99),
        maxNanos / 1e6);
  }

  private double percentile(double p) {
    return micros.getValueAtPercentile(p) / 1000.0;
  }
}
