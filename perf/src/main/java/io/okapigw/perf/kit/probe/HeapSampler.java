package io.okapigw.perf.kit.probe;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Samples a gateway's heap use ({@code jvm_memory_used_bytes{area="heap"}} of {@code /_/metrics},
 * summed over the pools) every period while a run lasts, on a thread of its own, keeping the
 * largest sample; a failed sample is skipped, and one sample runs at a time. {@link #close()} stops
 * it, after the sample in flight (it blocks for up to {@value #SAMPLE_TIMEOUT_SECONDS} s: call it
 * off the event loop).
 */
public final class HeapSampler implements AutoCloseable {

  static final long SAMPLE_TIMEOUT_SECONDS = 2;

  private static final HttpClient HTTP =
      HttpClient.newBuilder()
          // no h2c upgrade attempt: a relay would pass the Upgrade on to the module
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(1))
          .build();

  private final URI metrics;
  private final AtomicLong largest = new AtomicLong(-1);
  private final ScheduledExecutorService timer;

  private HeapSampler(URI metrics, Duration period) {
    this.metrics = metrics;
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread thread = new Thread(r, "heap-sampler");
              thread.setDaemon(true);
              return thread;
            });
    if (metrics != null) {
      timer.scheduleWithFixedDelay(
          this::sample, 0, Math.max(1, period.toMillis()), TimeUnit.MILLISECONDS);
    }
  }

  /**
   * @param metrics the gateway's {@code /_/metrics} URL, or null to sample nothing (a proxy without
   *     one)
   * @param period time between the end of one sample and the start of the next
   * @return a sampler already sampling
   */
  public static HeapSampler start(URI metrics, Duration period) {
    return new HeapSampler(metrics, period);
  }

  /**
   * @return whether it samples (it was given a metrics URL)
   */
  public boolean sampling() {
    return metrics != null;
  }

  /**
   * @return the largest heap use sampled so far, in bytes, or -1 if no sample succeeded
   */
  public long largest() {
    return largest.get();
  }

  private void sample() {
    try {
      HttpRequest request =
          HttpRequest.newBuilder(metrics)
              .timeout(Duration.ofSeconds(SAMPLE_TIMEOUT_SECONDS))
              .build();
      HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() == 200) {
        largest.accumulateAndGet(PrometheusText.heapUsed(response.body()), Math::max);
      }
    } catch (IOException | RuntimeException e) {
      // a missed sample
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Stops sampling once the sample in flight, if any, is done. */
  @Override
  public void close() {
    timer.shutdown();
    try {
      if (!timer.awaitTermination(SAMPLE_TIMEOUT_SECONDS + 1, TimeUnit.SECONDS)) {
        timer.shutdownNow();
      }
    } catch (InterruptedException e) {
      timer.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
