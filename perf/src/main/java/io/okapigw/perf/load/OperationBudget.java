package io.okapigw.perf.load;

import java.util.concurrent.atomic.AtomicLong;

/** The hard cap on operations of one run, shared by its users. Thread-safe. */
final class OperationBudget {

  private final AtomicLong left;

  OperationBudget(long operations) {
    this.left = new AtomicLong(operations);
  }

  /**
   * @return whether {@code n} more operations may start (and if so, they are taken)
   */
  boolean take(int n) {
    long now;
    do {
      now = left.get();
      if (now < n) {
        return false;
      }
    } while (!left.compareAndSet(now, now - n));
    return true;
  }
}
