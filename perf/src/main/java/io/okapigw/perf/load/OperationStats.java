package io.okapigw.perf.load;

import io.okapigw.perf.kit.latency.Latencies;
import io.okapigw.perf.kit.latency.LatencyStats;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Latencies and errors of one operation (check-out or check-in) in one phase. Every attempt is
 * counted and timed, failed ones too (as JMeter does); errors are also counted by kind (the status,
 * or what failed). Operations lost in flight are counted apart, by kind, untimed. Thread-safe.
 */
final class OperationStats {

  private final String name;
  private final Latencies latencies;
  private final AtomicLong errors = new AtomicLong();
  private final Map<String, LongAdder> kinds = new ConcurrentHashMap<>();

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
   * @param errorKind {@code null} for a success, else what went wrong (the status, say {@code 502},
   *     or {@code no answer})
   */
  void record(long nanos, String errorKind) {
    record(nanos, errorKind == null);
    if (errorKind != null) {
      kinds.computeIfAbsent(errorKind, k -> new LongAdder()).increment();
    }
  }

  /** An operation lost in flight (not timed), counted by {@code kind} only. */
  void lost(String kind) {
    kinds.computeIfAbsent(kind, k -> new LongAdder()).increment();
  }

  /**
   * @return errors and losses by kind, sorted by kind
   */
  Map<String, Long> errorKinds() {
    Map<String, Long> copy = new TreeMap<>();
    kinds.forEach((kind, n) -> copy.put(kind, n.sum()));
    return copy;
  }

  /**
   * @return both operations' figures as one, named {@code name}
   */
  static OperationStats merge(String name, OperationStats a, OperationStats b) {
    OperationStats all =
        new OperationStats(name, Latencies.merge(List.of(a.latencies, b.latencies)));
    all.errors.set(a.errors.get() + b.errors.get());
    for (OperationStats part : List.of(a, b)) {
      part.errorKinds()
          .forEach((k, n) -> all.kinds.computeIfAbsent(k, x -> new LongAdder()).add(n));
    }
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
