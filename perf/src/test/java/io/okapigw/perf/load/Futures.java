package io.okapigw.perf.load;

import io.vertx.core.Future;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** Waiting for a future in a test of the load driver. */
final class Futures {

  /**
   * How long a test waits for a stack to start or a run to end: a hang guard, far from how long it
   * takes on a busy machine (three demo stacks took over a minute to start with two CPU-bound
   * processes beside the build).
   */
  static final Duration PATIENCE = Duration.ofMinutes(5);

  private Futures() {}

  /**
   * @return the future's result
   * @throws java.util.concurrent.TimeoutException if it is not complete within {@link #PATIENCE}
   */
  static <T> T await(Future<T> future) throws Exception {
    return future
        .toCompletionStage()
        .toCompletableFuture()
        .get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
  }
}
