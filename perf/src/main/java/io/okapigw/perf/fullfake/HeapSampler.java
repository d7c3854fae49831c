package io.okapigw.perf.fullfake;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Samples a gateway's heap used every {@code period} until stopped, keeping the largest sample (one
 * sample in flight at a time; failed samples are skipped).
 */
public final class HeapSampler {

  private final Vertx vertx;
  private final GatewayProbe probe;
  private final long timer;
  private final AtomicLong max = new AtomicLong(-1);
  private final AtomicBoolean sampling = new AtomicBoolean();

  private HeapSampler(Vertx vertx, GatewayProbe probe, Duration period) {
    this.vertx = vertx;
    this.probe = probe;
    this.timer = vertx.setPeriodic(0, Math.max(1, period.toMillis()), id -> sample());
  }

  /**
   * @return a sampler already sampling
   */
  public static HeapSampler start(Vertx vertx, GatewayProbe probe, Duration period) {
    return new HeapSampler(vertx, probe, period);
  }

  /**
   * @return the largest heap used sampled, in bytes, or -1 if no sample succeeded
   */
  public Future<Long> stop() {
    vertx.cancelTimer(timer);
    return Future.succeededFuture(max.get());
  }

  private void sample() {
    if (sampling.compareAndSet(false, true)) {
      probe
          .heapUsed()
          .onSuccess(bytes -> max.accumulateAndGet(bytes, Math::max))
          .onComplete(r -> sampling.set(false));
    }
  }
}
