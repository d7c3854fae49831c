package io.okapigw.authtoken.bench;

import java.util.Arrays;

/** Latency samples in nanoseconds, with percentiles in milliseconds. */
final class Latencies {
  private final long[] sorted;

  Latencies(long[] nanos, int count) {
    this.sorted = Arrays.copyOf(nanos, count);
    Arrays.sort(sorted);
  }

  int count() {
    return sorted.length;
  }

  double percentileMillis(double p) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    int index = (int) Math.min(sorted.length - 1, Math.ceil(p / 100.0 * sorted.length) - 1);
    return sorted[Math.max(0, index)] / 1e6;
  }

  double meanMillis() {
    return sorted.length == 0 ? Double.NaN : Arrays.stream(sorted).average().orElse(0) / 1e6;
  }
}
