package io.okapigw.perf.load;

import io.okapigw.perf.kit.probe.PrometheusText;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import java.net.URI;

/**
 * HTTP to one gateway for one tenant: JSON POSTs and the auth-call counter from {@code /_/metrics}
 * (where the gateway has one: Okapi has not). Keeps one keep-alive connection per virtual user.
 */
final class GatewayClient {

  /**
   * A request that never left: no connection to the gateway could be had (refused, unreachable), so
   * it is safe to send it elsewhere.
   */
  static final class NotSent extends RuntimeException {

    NotSent(URI gateway, Throwable cause) {
      super("no connection to " + gateway + ": " + cause.getMessage(), cause);
    }
  }

  /** A request that gets no bytes for this long fails (so a run always ends). */
  static final long IDLE_TIMEOUT_MS = 60_000;

  /**
   * An HTTP answer.
   *
   * @param status the status code
   * @param body the whole body
   * @param token the {@code X-Okapi-Token} header, or {@code null}
   */
  record Answer(int status, Buffer body, String token) {

    boolean ok() {
      return status >= 200 && status < 300;
    }

    /**
     * @return {@code status: body} with the body cut to 200 characters
     */
    String describe() {
      String text = body.toString().replaceAll("\\s+", " ");
      return status + ": " + (text.length() > 200 ? text.substring(0, 200) + "..." : text);
    }
  }

  private final HttpClientAgent http;
  private final URI gateway;
  private final String base;
  private final String tenant;

  GatewayClient(Vertx vertx, URI gateway, String tenant, int connections) {
    this.http =
        vertx.createHttpClient(
            new HttpClientOptions().setKeepAlive(true),
            new PoolOptions().setHttp1MaxSize(connections + 1));
    this.gateway = gateway;
    String url = gateway.toString();
    this.base = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    this.tenant = tenant;
  }

  /**
   * POSTs JSON to {@code path} as the tenant, with the token if not {@code null}.
   *
   * @return the answer; failed with {@link NotSent} if no connection could be had, or with the
   *     cause if the request failed after it was sent (then it may have taken effect)
   */
  Future<Answer> post(String path, JsonObject body, String token) {
    RequestOptions options =
        new RequestOptions()
            .setMethod(HttpMethod.POST)
            .setAbsoluteURI(base + path)
            .setIdleTimeout(IDLE_TIMEOUT_MS)
            .putHeader("X-Okapi-Tenant", tenant)
            .putHeader("Content-Type", "application/json")
            .putHeader("Accept", "application/json, text/plain");
    if (token != null) {
      options.putHeader("X-Okapi-Token", token);
    }
    return http.request(options)
        .recover(e -> Future.failedFuture(new NotSent(gateway, e)))
        .compose(request -> request.send(body.toBuffer()))
        .compose(
            response ->
                response
                    .body()
                    .map(
                        b ->
                            new Answer(
                                response.statusCode(), b, response.getHeader("X-Okapi-Token"))));
  }

  /**
   * Two counters from one read of {@code /_/metrics}.
   *
   * @param authCalls {@code okapi_auth_calls_total} for the tenant, all outcomes
   * @param cpuNanos the gateway JVM's CPU time (NaN if not reported)
   */
  record Counters(double authCalls, double cpuNanos) {

    /** A gateway without {@code /_/metrics} (Okapi): both unknown. */
    static final Counters UNKNOWN = new Counters(Double.NaN, Double.NaN);
  }

  /**
   * @return the status {@code GET /_/metrics} answers (200 at ours, 404 at Okapi); failed with
   *     {@link NotSent} if no connection could be had
   */
  Future<Integer> metricsStatus() {
    return http.request(metricsRequest())
        .recover(e -> Future.failedFuture(new NotSent(gateway, e)))
        .compose(request -> request.send())
        .compose(response -> response.body().map(b -> response.statusCode()));
  }

  private RequestOptions metricsRequest() {
    return new RequestOptions()
        .setMethod(HttpMethod.GET)
        .setAbsoluteURI(base + "/_/metrics")
        .setIdleTimeout(IDLE_TIMEOUT_MS);
  }

  /**
   * @return the gateway's counters now
   */
  Future<Counters> counters() {
    return http.request(metricsRequest())
        .compose(request -> request.send())
        .compose(
            response ->
                response.statusCode() == 200
                    ? response.body()
                    : Future.failedFuture(
                        "GET " + base + "/_/metrics answered " + response.statusCode()))
        .map(Buffer::toString)
        .map(text -> new Counters(AuthCallMetric.sum(text, tenant), cpuNanos(text)));
  }

  URI gateway() {
    return gateway;
  }

  /**
   * @return the JVM's CPU time in nanoseconds from {@code /_/metrics}, NaN if not reported
   */
  private static double cpuNanos(String metrics) {
    long nanos = PrometheusText.cpuNanos(metrics);
    return nanos < 0 ? Double.NaN : nanos;
  }

  Future<Void> close() {
    return http.close();
  }
}
