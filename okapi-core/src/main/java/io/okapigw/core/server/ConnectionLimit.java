package io.okapigw.core.server;

import io.micrometer.core.instrument.Counter;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * One listener's limit on its client connections open at once, shared by the servers of all its
 * event loops (the {@code server.*-max-connections} settings): a connection past it is closed as
 * soon as it is accepted, before anything is read from it, and counted in {@code
 * okapi_client_connections_refused_total{listener}}. Thread-safe.
 */
public final class ConnectionLimit {

  private final int max;
  private final Counter refused;
  private final AtomicInteger open = new AtomicInteger();

  ConnectionLimit(int max, Counter refused) {
    this.max = max;
    this.refused = refused;
  }

  /**
   * @return whether a connection just accepted may stay open; if so, {@link #closed} once it closes
   */
  boolean tryOpen() {
    return tryOpen(() -> false);
  }

  /**
   * As {@link #tryOpen()}, but when the limit is reached {@code makeRoom} may give a slot back
   * first ({@link #closed} for a connection it closes).
   *
   * @param makeRoom whether it closed a connection and gave its slot back
   */
  boolean tryOpen(BooleanSupplier makeRoom) {
    if (open.incrementAndGet() <= max) {
      return true;
    }
    open.decrementAndGet();
    if (makeRoom.getAsBoolean()) {
      if (open.incrementAndGet() <= max) {
        return true;
      }
      open.decrementAndGet();
    }
    refused.increment();
    return false;
  }

  void closed() {
    open.decrementAndGet();
  }
}
