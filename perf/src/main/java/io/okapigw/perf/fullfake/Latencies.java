package io.okapigw.perf.fullfake;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Records up to a fixed number of latency samples from any thread (the sample counts of a benchmark
 * run are small enough to keep every one).
 */
final class Latencies {

  private final AtomicLongArray nanos;
  private final AtomicInteger count = new AtomicInteger();

  Latencies(int capacity) {
    nanos = new AtomicLongArray(capacity);
  }

  void record(long value) {
    int i = count.getAndIncrement();
    if (i < nanos.length()) {
      nanos.set(i, value);
    }
  }

  /**
   * @return what was recorded (read after the run)
   */
  Samples samples() {
    int n = Math.min(count.get(), nanos.length());
    long[] values = new long[n];
    for (int i = 0; i < n; i++) {
      values[i] = nanos.get(i);
    }
    return Samples.of(values);
  }
}
