package io.okapigw.perf.load;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Counts errors and keeps the first few messages to show; keeps operations lost in flight apart, by
 * gateway, because a loss only counts as an error if its gateway did not go down. Thread-safe.
 */
final class ErrorLog {

  static final int KEEP = 5;

  private record Loss(int gateway, String message) {}

  private final List<String> first = new ArrayList<>();
  private final List<Loss> firstLosses = new ArrayList<>();
  private final Map<Integer, Long> losses = new HashMap<>();
  private long count;

  synchronized void add(String message) {
    count++;
    if (first.size() < KEEP) {
      first.add(message);
    }
  }

  /** An operation that failed after it was sent to {@code gateway}. */
  synchronized void lost(int gateway, String message) {
    losses.merge(gateway, 1L, Long::sum);
    if (firstLosses.size() < KEEP) {
      firstLosses.add(new Loss(gateway, message));
    }
  }

  /**
   * @return errors, counting losses at gateways not in {@code down}
   */
  synchronized long count(Set<Integer> down) {
    return count
        + losses.entrySet().stream()
            .filter(e -> !down.contains(e.getKey()))
            .mapToLong(Map.Entry::getValue)
            .sum();
  }

  /**
   * @return operations lost in flight at the gateways in {@code down}
   */
  synchronized long lostAt(Set<Integer> down) {
    return losses.entrySet().stream()
        .filter(e -> down.contains(e.getKey()))
        .mapToLong(Map.Entry::getValue)
        .sum();
  }

  /**
   * @return the first messages of errors, including losses at gateways not in {@code down}
   */
  synchronized List<String> first(Set<Integer> down) {
    List<String> shown = new ArrayList<>(first);
    firstLosses.stream()
        .filter(l -> !down.contains(l.gateway()))
        .limit(KEEP)
        .forEach(l -> shown.add(l.message()));
    return List.copyOf(shown);
  }
}
