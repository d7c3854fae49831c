package io.okapigw.perf.load;

import org.HdrHistogram.Histogram;

/**
 * Latencies and errors of one operation (check-out or check-in) in one phase. Every attempt is
 * counted and timed, failed ones too (as JMeter does). Percentiles come from an HdrHistogram in
 * microseconds with 3 significant digits (within 0.1%); mean and max are exact. Thread-safe.
 */
final class OperationStats {

  private final String name;
  private final Histogram micros = new Histogram(3);
  private long count;
  private long errors;
  private long sumNanos;
  private long maxNanos;

  OperationStats(String name) {
    this.name = name;
  }

  synchronized void record(long nanos, boolean ok) {
    micros.recordValue(Math.max(1, nanos / 1000));
    count++;
    sumNanos += nanos;
    maxNanos = Math.max(maxNanos, nanos);
    if (!ok) {
      errors++;
    }
  }

  /**
   * @return both operations' figures as one, named {@code name}
   */
  static OperationStats merge(String name, OperationStats a, OperationStats b) {
    OperationStats all = new OperationStats(name);
    for (OperationStats s : new OperationStats[] {a, b}) {
      synchronized (s) {
        all.micros.add(s.micros);
        all.count += s.count;
        all.errors += s.errors;
        all.sumNanos += s.sumNanos;
        all.maxNanos = Math.max(all.maxNanos, s.maxNanos);
      }
    }
    return all;
  }

  /**
   * @param seconds the phase's length, for the rate
   */
  synchronized OperationSummary summary(double seconds) {
    return new OperationSummary(
        name,
        count,
        errors,
        seconds > 0 ? count / seconds : 0,
        count == 0 ? 0 : sumNanos / 1e6 / count,
        percentile(50),
        percentile(90),
        percentile(99),
        maxNanos / 1e6);
  }

  private double percentile(double p) {
    return count == 0 ? 0 : micros.getValueAtPercentile(p) / 1000.0;
  }
}
