package io.okapigw.core.admin;

import io.okapigw.core.registry.DeploymentDescriptor;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Okapi's health check of module instances ({@code /_/discovery/health}): a {@code GET} of the
 * instance's URL; any HTTP answer read to its end is healthy, anything else (refused, reset, no
 * answer within its timeout) is not. Answers are Okapi's {@code {instId, srvcId, healthMessage:
 * "OK" | "Fail: ...", healthStatus}}. Instances are checked at once, without blocking the event
 * loop, so a list answers within about the timeout ({@link #TIMEOUT} in the admin API) however many
 * instances are dead.
 */
final class InstanceHealth {

  /** How long one instance may take to connect and answer (Okapi waits without a bound). */
  static final Duration TIMEOUT = Duration.ofSeconds(5);

  private final Duration timeout;
  private HttpClient client;

  /**
   * @param timeout how long one instance may take to connect and answer
   */
  InstanceHealth(Duration timeout) {
    this.timeout = timeout;
  }

  /**
   * @return the health of each instance, in the order given
   */
  Future<List<JsonObject>> check(Vertx vertx, List<DeploymentDescriptor> instances) {
    List<Future<JsonObject>> checks = instances.stream().map(d -> check(vertx, d)).toList();
    return Future.all(checks).map(all -> checks.stream().map(Future::result).toList());
  }

  /**
   * @return the instance's health; never fails
   */
  Future<JsonObject> check(Vertx vertx, DeploymentDescriptor instance) {
    JsonObject health =
        new JsonObject().put("instId", instance.instId()).put("srvcId", instance.srvcId());
    long millis = timeout.toMillis();
    HttpClientRequest[] sent = {null};
    return client(vertx)
        .request(
            new RequestOptions()
                .setMethod(HttpMethod.GET)
                .setAbsoluteURI(instance.url())
                .setFollowRedirects(false)
                .setConnectTimeout(millis)
                .setIdleTimeout(millis))
        .compose(
            request -> {
              sent[0] = request;
              return request.send();
            })
        .compose(response -> response.end())
        .timeout(millis, TimeUnit.MILLISECONDS)
        .map(v -> health.put("healthMessage", "OK").put("healthStatus", true))
        .recover(
            e -> {
              if (sent[0] != null) {
                sent[0].reset();
              }
              return Future.succeededFuture(
                  health
                      .put("healthMessage", "Fail: " + reason(e, millis))
                      .put("healthStatus", false));
            });
  }

  private static String reason(Throwable e, long millis) {
    if (e instanceof TimeoutException) {
      return "no answer within " + millis + " ms";
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }

  /**
   * One client per admin router (so per event loop), made on first use on that loop and closed with
   * its verticle; connections are not kept, a check must open one.
   */
  private HttpClient client(Vertx vertx) {
    if (client == null) {
      client = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(false));
    }
    return client;
  }
}
