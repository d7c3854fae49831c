package io.okapigw.perf.kit.probe;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;

/**
 * Reads a gateway's own figures: heap used (the sum of the heap areas of {@code
 * jvm_memory_used_bytes} at {@code /_/metrics}), CPU time used ({@code process_cpu_time_ns_total},
 * 10 ms resolution on Linux) and the auth cache counters ({@code /_/proxy/auth-cache}).
 */
public final class GatewayProbe {

  private final HttpClientAgent client;
  private final String gatewayUrl;

  /**
   * The auth cache counters of a gateway.
   *
   * @param hits decisions served from the cache
   * @param misses lookups that had to ask the auth module
   * @param authCalls calls made to the auth module
   */
  public record CacheCounters(long hits, long misses, long authCalls) {

    /**
     * @return these and {@code other} added up
     */
    public CacheCounters plus(CacheCounters other) {
      return new CacheCounters(
          hits + other.hits, misses + other.misses, authCalls + other.authCalls);
    }

    /**
     * @return what happened between {@code before} and this
     */
    public CacheCounters minus(CacheCounters before) {
      return new CacheCounters(
          hits - before.hits, misses - before.misses, authCalls - before.authCalls);
    }
  }

  /**
   * What {@code /_/metrics} said at one moment.
   *
   * @param heapUsed bytes of heap in use (garbage not yet collected included)
   * @param cpuNanos CPU time the gateway's JVM has used so far (-1 if not reported)
   */
  public record Metrics(long heapUsed, long cpuNanos) {
    /** When the metrics could not be read. */
    public static final Metrics UNKNOWN = new Metrics(-1, -1);
  }

  /**
   * @param gatewayUrl the gateway's base URL, e.g. {@code http://127.0.0.1:9130}
   */
  public GatewayProbe(Vertx vertx, String gatewayUrl) {
    this.client = vertx.createHttpClient();
    this.gatewayUrl = gatewayUrl;
  }

  /**
   * @return heap used and CPU time now
   */
  public Future<Metrics> metrics() {
    return get("/_/metrics")
        .map(body -> new Metrics(heapOf(body), PrometheusText.cpuNanos(body.toString())));
  }

  /**
   * @return the auth cache counters now
   */
  public Future<CacheCounters> authCache() {
    return get("/_/proxy/auth-cache")
        .map(
            body -> {
              JsonObject json = body.toJsonObject();
              return new CacheCounters(
                  json.getLong("hits", 0L),
                  json.getLong("misses", 0L),
                  json.getLong("authCalls", 0L));
            });
  }

  /** Closes its HTTP client. */
  public Future<Void> close() {
    return client.close();
  }

  private static long heapOf(Buffer metrics) {
    long heap = PrometheusText.heapUsed(metrics.toString());
    if (heap < 0) {
      throw new IllegalStateException("no jvm_memory_used_bytes{area=\"heap\"} in /_/metrics");
    }
    return heap;
  }

  private Future<Buffer> get(String path) {
    return client
        .request(new RequestOptions().setMethod(HttpMethod.GET).setAbsoluteURI(gatewayUrl + path))
        .compose(HttpClientRequest::send)
        .compose(
            response ->
                response
                    .body()
                    .compose(
                        body ->
                            response.statusCode() == 200
                                ? Future.succeededFuture(body)
                                : Future.failedFuture(
                                    "GET " + path + " answered " + response.statusCode())));
  }
}
