package io.okapigw.perf.hop;

import io.okapigw.perf.fullfake.GatewayProbe;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Samples our gateway's heap use ({@code jvm_memory_used_bytes{area="heap"}} of {@code /_/metrics},
 * summed over the pools) every {@value #PERIOD_MILLIS} ms while a run lasts, keeping the largest.
 */
final class HeapSampler implements AutoCloseable {

  static final long PERIOD_MILLIS = 2000;
  private static final HttpClient HTTP =
      HttpClient.newBuilder()
          // no h2c upgrade attempt: a relay would pass the Upgrade on to the module
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(1))
          .build();

  private final URI metrics;
  private final AtomicLong largest = new AtomicLong(-1);
  private final Thread thread;
  private volatile boolean stopped;

  /**
   * @param metrics the metrics URL, or null to sample nothing
   */
  HeapSampler(URI metrics) {
    this.metrics = metrics;
    this.thread = new Thread(this::loop, "heap-sampler");
    thread.setDaemon(true);
    if (metrics != null) {
      thread.start();
    }
  }

  private void loop() {
    while (!stopped) {
      sample();
      try {
        Thread.sleep(PERIOD_MILLIS);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private void sample() {
    try {
      HttpRequest request = HttpRequest.newBuilder(metrics).timeout(Duration.ofSeconds(2)).build();
      String body = HTTP.send(request, HttpResponse.BodyHandlers.ofString()).body();
      largest.accumulateAndGet(GatewayProbe.heapUsed(body), Math::max);
    } catch (IOException | RuntimeException e) {
      // a missed sample
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * @return the largest heap use sampled, or -1
   */
  long largest() {
    return largest.get();
  }

  @Override
  public void close() {
    stopped = true;
    thread.interrupt();
  }
}
