package io.okapigw.perf.cluster;

import java.util.Arrays;

/** Exact percentiles of a bounded number of nanosecond samples. */
final class Percentiles {

  private long[] samples = new long[1024];
  private int count;

  void add(long nanos) {
    if (count == samples.length) {
      samples = Arrays.copyOf(samples, count * 2);
    }
    samples[count++] = nanos;
  }

  int count() {
    return count;
  }

  /**
   * @return "p50 | p90 | p99 | max" in milliseconds
   */
  String row() {
    long[] sorted = Arrays.copyOf(samples, count);
    Arrays.sort(sorted);
    return ms(at(sorted, 0.50))
        + " | "
        + ms(at(sorted, 0.90))
        + " | "
        + ms(at(sorted, 0.99))
        + " | "
        + ms(count == 0 ? 0 : sorted[count - 1]);
  }

  private static long at(long[] sorted, double q) {
    if (sorted.length == 0) {
      return 0;
    }
    return sorted[Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1)];
  }

  private static String ms(long nanos) {
    return String.format("%.2f", nanos / 1e6);
  }
}
