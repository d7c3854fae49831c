package io.okapigw.perf.registryscale;

import io.okapigw.perf.kit.latency.Latencies;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Other tenants' proxied requests through one gateway while the run goes on: one GET at a time,
 * {@code rate} a second at most, each to a random tenant installed before and a random one of its
 * modules, its latency recorded where {@link #into} points (nowhere between windows).
 */
final class Probe implements AutoCloseable {

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final String gateway;
  private final int modules;
  private final long pauseNanos;
  private final AtomicInteger tenants = new AtomicInteger();
  private final AtomicReference<Latencies> into = new AtomicReference<>();
  private final AtomicLong errors = new AtomicLong();
  private final Thread thread;
  private volatile boolean stop;

  Probe(String name, String gateway, int modules, int rate) {
    this.gateway = gateway;
    this.modules = modules;
    this.pauseNanos = 1_000_000_000L / rate;
    thread = new Thread(this::loop, "probe-" + name);
    thread.setDaemon(true);
    thread.start();
  }

  /** Tenants {@code t1..tN} are installed and may be asked. */
  void tenants(int n) {
    tenants.set(n);
  }

  /**
   * @param latencies where the next requests' latencies go; null: nowhere
   */
  void into(Latencies latencies) {
    into.set(latencies);
  }

  /**
   * @return requests that were not answered 200 (or failed) so far
   */
  long errors() {
    return errors.get();
  }

  private void loop() {
    while (!stop) {
      long start = System.nanoTime();
      int n = tenants.get();
      Latencies window = into.get();
      if (n > 0 && window != null) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        String tenant = "t" + (1 + random.nextInt(n));
        int module = random.nextInt(modules);
        HttpRequest request =
            HttpRequest.newBuilder(URI.create(gateway + ScaleDescriptors.probePath(module)))
                .header("X-Okapi-Tenant", tenant)
                .timeout(Duration.ofSeconds(30))
                .GET()
                .build();
        try {
          int status = http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
          long took = System.nanoTime() - start;
          if (status != 200) {
            errors.incrementAndGet();
          }
          if (into.get() == window) {
            window.record(took);
          }
        } catch (Exception e) {
          errors.incrementAndGet();
        }
      }
      long left = pauseNanos - (System.nanoTime() - start);
      if (left > 0) {
        java.util.concurrent.locks.LockSupport.parkNanos(left);
      }
    }
  }

  @Override
  public void close() {
    stop = true;
    thread.interrupt();
  }
}
