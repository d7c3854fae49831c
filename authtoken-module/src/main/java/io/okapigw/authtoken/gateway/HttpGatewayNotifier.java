package io.okapigw.authtoken.gateway;

import io.okapigw.authtoken.http.OkapiHeaders;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Posts invalidations to the gateway, each attempt with a freshly signed token (see {@link
 * GatewayNotifier}), so a retry after a long back-off does not send an expired one. Waits at most
 * the timeout; on a connection error, timeout, 5xx or 401 it succeeds anyway, logs a warning and
 * retries in the background with doubling delays (capped at 30 s) up to the configured number of
 * retries. A 401 is retried because it can be passing: another instance of the module, asked as the
 * filter, may not have re-read a rotated signing key yet. Any other 4xx is logged and not retried:
 * the same request would get the same answer. The token is never logged.
 */
final class HttpGatewayNotifier implements GatewayNotifier {
  static final String PATH = "/_/proxy/auth-cache/invalidate";
  static final Duration MAX_RETRY_DELAY = Duration.ofSeconds(30);
  private static final Logger LOG = LoggerFactory.getLogger(HttpGatewayNotifier.class);

  private final Vertx vertx;
  private final Signer signer;
  private final HttpClientAgent client;
  private final String url;
  private final long timeoutMillis;
  private final long retryDelayMillis;
  private final int retries;
  private final Set<Long> timers = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  HttpGatewayNotifier(Vertx vertx, InvalidationOptions options, Signer signer) {
    this.vertx = vertx;
    this.signer = signer;
    this.url = options.gatewayUrl() + PATH;
    this.timeoutMillis = options.timeout().toMillis();
    this.retryDelayMillis = options.retryDelay().toMillis();
    this.retries = options.retries();
    this.client =
        vertx.createHttpClient(new HttpClientOptions().setConnectTimeout((int) timeoutMillis));
  }

  @Override
  public Future<Void> invalidate(JsonObject body) {
    return send(body)
        .recover(
            e -> {
              LOG.warn(
                  "auth-cache invalidation {} at the gateway failed ({}); retrying in the background",
                  describe(body),
                  e.getMessage());
              scheduleRetry(body, 1);
              return Future.succeededFuture();
            });
  }

  @Override
  public Future<Void> close() {
    closed = true;
    timers.forEach(vertx::cancelTimer);
    timers.clear();
    return client.close();
  }

  private Future<Void> send(JsonObject body) {
    RequestOptions request =
        new RequestOptions()
            .setMethod(HttpMethod.POST)
            .setAbsoluteURI(url)
            .setConnectTimeout(timeoutMillis)
            .setIdleTimeout(timeoutMillis)
            .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
            .putHeader(OkapiHeaders.TENANT, SUPERTENANT)
            .putHeader(
                OkapiHeaders.TOKEN,
                signer.sign(SUPERTENANT, List.of(INVALIDATE_PERMISSION), TOKEN_LIFETIME));
    return client
        .request(request)
        .compose(req -> req.send(body.toBuffer()))
        .compose(resp -> resp.body().compose(b -> answered(body, resp.statusCode(), b)))
        .timeout(timeoutMillis, TimeUnit.MILLISECONDS);
  }

  private Future<Void> answered(JsonObject body, int status, Buffer answer) {
    if (status >= 500 || status == 401) {
      return Future.failedFuture("gateway answered " + status);
    }
    if (status >= 400) {
      LOG.warn(
          "gateway refused auth-cache invalidation {}: {} {}",
          describe(body),
          status,
          answer.length() > 200 ? answer.getString(0, 200) : answer.toString());
    } else {
      LOG.debug("gateway invalidated {}", describe(body));
    }
    return Future.succeededFuture();
  }

  private void scheduleRetry(JsonObject body, int attempt) {
    if (closed) {
      return;
    }
    if (attempt > retries) {
      LOG.error("giving up auth-cache invalidation {} after {} retries", describe(body), retries);
      return;
    }
    long delay =
        Math.min(retryDelayMillis << Math.min(attempt - 1, 20), MAX_RETRY_DELAY.toMillis());
    timers.add(
        vertx.setTimer(
            delay,
            timer -> {
              timers.remove(timer);
              send(body)
                  .onSuccess(
                      v ->
                          LOG.info(
                              "auth-cache invalidation {} reached the gateway on retry {}",
                              describe(body),
                              attempt))
                  .onFailure(e -> scheduleRetry(body, attempt + 1));
            }));
  }

  /** What is invalidated, without the token. */
  private static String describe(JsonObject body) {
    if (body.containsKey("token")) {
      return "{tenant=" + body.getString("tenant") + ", token}";
    }
    return body.isEmpty() ? "{all}" : body.getMap().toString();
  }
}
