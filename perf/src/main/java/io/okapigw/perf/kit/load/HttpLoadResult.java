package io.okapigw.perf.kit.load;

import io.okapigw.config.Sizes;
import io.okapigw.perf.kit.latency.Latencies;
import io.okapigw.perf.kit.latency.LatencyStats;
import java.util.List;
import java.util.Objects;

/**
 * What an {@link HttpLoad} measured.
 *
 * @param completed requests that got a whole answer or failed (errors included)
 * @param errors failed requests: connection errors, non-2xx answers, wrong body length
 * @param firstError what the first failure was, or {@code null}
 * @param elapsedNanos from the first request sent to the last one finished
 * @param bytes body bytes received
 * @param ttfbLatencies time to the response headers, of successful requests
 * @param durationLatencies time to the last body byte, of successful requests
 * @param cut whether the time limit stopped the run before all requests were done
 */
public record HttpLoadResult(
    int completed,
    int errors,
    String firstError,
    long elapsedNanos,
    long bytes,
    Latencies ttfbLatencies,
    Latencies durationLatencies,
    boolean cut) {

  /**
   * @param parts runs of the same load (e.g. rounds interleaved with other loads)
   * @return them as one run: counts, bytes and times added, latencies pooled
   */
  public static HttpLoadResult combine(List<HttpLoadResult> parts) {
    return new HttpLoadResult(
        parts.stream().mapToInt(HttpLoadResult::completed).sum(),
        parts.stream().mapToInt(HttpLoadResult::errors).sum(),
        parts.stream()
            .map(HttpLoadResult::firstError)
            .filter(Objects::nonNull)
            .findFirst()
            .orElse(null),
        parts.stream().mapToLong(HttpLoadResult::elapsedNanos).sum(),
        parts.stream().mapToLong(HttpLoadResult::bytes).sum(),
        Latencies.merge(parts.stream().map(HttpLoadResult::ttfbLatencies).toList()),
        Latencies.merge(parts.stream().map(HttpLoadResult::durationLatencies).toList()),
        parts.stream().anyMatch(HttpLoadResult::cut));
  }

  /**
   * @return time to the response headers (ms)
   */
  public LatencyStats ttfb() {
    return ttfbLatencies.stats();
  }

  /**
   * @return time to the last body byte (ms)
   */
  public LatencyStats duration() {
    return durationLatencies.stats();
  }

  /**
   * @return completed requests per second
   */
  public double rps() {
    return elapsedNanos == 0 ? 0 : completed * 1e9 / elapsedNanos;
  }

  /**
   * @return body megabytes (MiB) received per second
   */
  public double mbPerSecond() {
    return elapsedNanos == 0 ? 0 : bytes / (double) Sizes.MB * 1e9 / elapsedNanos;
  }
}
