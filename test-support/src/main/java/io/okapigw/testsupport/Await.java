package io.okapigw.testsupport;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Waiting for a condition instead of sleeping for a guessed time. The patience is a hang guard, far
 * from how long a condition takes even on a busy machine: a test never fails for being slow.
 */
public final class Await {

  private static final Duration PATIENCE = Duration.ofSeconds(60);

  private Await() {}

  /**
   * Waits until {@code condition} holds, looking every 20 ms.
   *
   * @param what the condition, for the failure message
   * @throws AssertionError if it does not hold within 60 s
   */
  public static void until(BooleanSupplier condition, String what) {
    until(PATIENCE, condition, what);
  }

  /**
   * Waits until {@code condition} holds, looking every 20 ms, at most {@code patience} (a program
   * that starts a JVM of its own first).
   *
   * @throws AssertionError if it does not hold in time
   */
  public static void until(Duration patience, BooleanSupplier condition, String what) {
    Instant deadline = Instant.now().plus(patience);
    while (!condition.getAsBoolean()) {
      if (Instant.now().isAfter(deadline)) {
        throw new AssertionError("still waiting after " + patience + " until " + what);
      }
      try {
        TimeUnit.MILLISECONDS.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted while waiting until " + what, e);
      }
    }
  }
}
