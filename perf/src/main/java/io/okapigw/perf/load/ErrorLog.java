package io.okapigw.perf.load;

import java.util.ArrayList;
import java.util.List;

/** Counts errors and keeps the first few messages to show. Thread-safe. */
final class ErrorLog {

  static final int KEEP = 5;

  private final List<String> first = new ArrayList<>();
  private long count;

  synchronized void add(String message) {
    count++;
    if (first.size() < KEEP) {
      first.add(message);
    }
  }

  synchronized long count() {
    return count;
  }

  synchronized List<String> first() {
    return List.copyOf(first);
  }
}
