package io.okapigw.authtoken.gateway;

import io.okapigw.authtoken.http.OkapiHeaders;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Posts invalidations to the gateway, each attempt with a freshly signed token (see {@link
 * GatewayNotifier}), so a retry after a long back-off does not send an expired one.
 *
 * <p>An invalidation is one round over the gateway URLs ({@link Round}), starting with the one that
 * answered last: a URL that cannot be reached, answers 5xx or 401, or stays silent for the failover
 * delay is followed by the next (a silent one keeps its chance: the first answer counts). Each URL
 * is waited for at most the timeout. If none answers, the call succeeds anyway, logs a warning and
 * retries the round in the background with doubling delays (capped at 30 s) up to the configured
 * number of retries. A 401 is retried because it can be passing: another instance of the module,
 * asked as the filter, may not have re-read a rotated signing key yet. Any other 4xx is logged and
 * not retried: the same request would get the same answer. The token is never logged.
 */
final class HttpGatewayNotifier implements GatewayNotifier {
  static final String PATH = "/_/proxy/auth-cache/invalidate";
  static final Duration MAX_RETRY_DELAY = Duration.ofSeconds(30);
  private static final Logger LOG = LoggerFactory.getLogger(HttpGatewayNotifier.class);

  private final Vertx vertx;
  private final Signer signer;
  private final HttpClientAgent client;
  private final List<String> urls;
  private final long timeoutMillis;
  private final long failoverMillis;
  private final long retryDelayMillis;
  private final int retries;
  private final Set<Long> timers = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  /** The URL a round starts with: the one that answered last. */
  private volatile int preferred;

  HttpGatewayNotifier(Vertx vertx, InvalidationOptions options, Signer signer) {
    this.vertx = vertx;
    this.signer = signer;
    this.urls = options.gateways().stream().map(gateway -> gateway + PATH).toList();
    this.timeoutMillis = options.timeout().toMillis();
    this.failoverMillis = options.failoverAfter().toMillis();
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
    return new Round(body).start();
  }

  /**
   * One invalidation sent to the gateway URLs in turn: the next one asked as soon as one failed or
   * has been silent for the failover delay; done at the first answer, failed once every URL failed.
   * Runs on one context (the caller's, or a retry timer's).
   */
  private final class Round {
    private final JsonObject body;
    private final Promise<Void> done = Promise.promise();
    private final List<String> failures = new ArrayList<>();
    private final int first = preferred;
    private int asked;

    Round(JsonObject body) {
      this.body = body;
    }

    Future<Void> start() {
      askNext();
      return done.future();
    }

    private void askNext() {
      if (done.future().isComplete() || asked == urls.size()) {
        return;
      }
      int index = (first + asked++) % urls.size();
      long failover = asked < urls.size() ? vertx.setTimer(failoverMillis, t -> askNext()) : -1;
      post(urls.get(index), body)
          .onComplete(
              result -> {
                vertx.cancelTimer(failover);
                if (result.succeeded()) {
                  preferred = index;
                  done.tryComplete();
                  return;
                }
                failures.add(urls.get(index) + ": " + result.cause().getMessage());
                if (failures.size() == urls.size()) {
                  done.tryFail(String.join("; ", failures));
                } else {
                  askNext();
                }
              });
    }
  }

  private Future<Void> post(String url, JsonObject body) {
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
        .compose(resp -> resp.body().compose(b -> answered(body, resp, b)))
        .timeout(timeoutMillis, TimeUnit.MILLISECONDS);
  }

  private Future<Void> answered(JsonObject body, HttpClientResponse response, Buffer answer) {
    int status = response.statusCode();
    if (status >= 500 || status == 401) {
      return Future.failedFuture("gateway answered " + status);
    }
    if (status >= 400) {
      LOG.warn(
          "gateway refused auth-cache invalidation {}: {} {}",
          describe(body),
          status,
          answer.length() > 200 ? answer.getString(0, 200) : answer.toString());
    } else if (status == 202) {
      LOG.warn(
          "gateway invalidated {} on {} nodes; some members did not confirm: {}",
          describe(body),
          response.getHeader(INVALIDATED_NODES),
          answer.length() > 200 ? answer.getString(0, 200) : answer.toString());
    } else {
      LOG.debug(
          "gateway invalidated {} on {} nodes",
          describe(body),
          response.getHeader(INVALIDATED_NODES));
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
