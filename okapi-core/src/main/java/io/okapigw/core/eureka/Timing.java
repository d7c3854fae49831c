package io.okapigw.core.eureka;

import io.vertx.core.Future;
import java.time.Instant;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * The time, and work run later, for the realms' keys: the node's scheduler (a test's fake one), as
 * the request path may not import the scheduler's package.
 */
public interface Timing {

  /**
   * @return the current instant
   */
  Instant now();

  /** Runs {@code task} once {@link #now()} has reached {@code at}. */
  void at(Instant at, Supplier<Future<Void>> task);

  /**
   * @param now the scheduler's {@code now}
   * @param at the scheduler's {@code at}
   */
  static Timing of(Supplier<Instant> now, BiConsumer<Instant, Supplier<Future<Void>>> at) {
    return new Timing() {
      @Override
      public Instant now() {
        return now.get();
      }

      @Override
      public void at(Instant when, Supplier<Future<Void>> task) {
        at.accept(when, task);
      }
    };
  }
}
