package io.okapigw.perf.fullfake;

import java.util.Arrays;
import java.util.List;

/** Latency samples in nanoseconds, sorted, immutable; exact nearest-rank percentiles. */
public final class Samples {

  private static final Samples NONE = new Samples(new long[0]);

  private final long[] sorted;

  private Samples(long[] sorted) {
    this.sorted = sorted;
  }

  /**
   * @return the samples of {@code nanos} (copied)
   */
  public static Samples of(long... nanos) {
    long[] copy = nanos.clone();
    Arrays.sort(copy);
    return new Samples(copy);
  }

  /**
   * @return every sample of {@code parts} together
   */
  public static Samples merge(List<Samples> parts) {
    if (parts.isEmpty()) {
      return NONE;
    }
    return of(parts.stream().flatMapToLong(s -> Arrays.stream(s.sorted)).toArray());
  }

  /**
   * @return how many
   */
  public int count() {
    return sorted.length;
  }

  /**
   * @return mean, median, 99th percentile and max, in milliseconds (zeros if none)
   */
  public LatencyStats stats() {
    int n = sorted.length;
    if (n == 0) {
      return new LatencyStats(0, 0, 0, 0, 0);
    }
    double mean = Arrays.stream(sorted).average().orElse(0);
    return new LatencyStats(n, mean / 1e6, percentile(50), percentile(99), sorted[n - 1] / 1e6);
  }

  private double percentile(double p) {
    int rank = (int) Math.ceil(p / 100 * sorted.length);
    return sorted[Math.max(0, rank - 1)] / 1e6;
  }
}
