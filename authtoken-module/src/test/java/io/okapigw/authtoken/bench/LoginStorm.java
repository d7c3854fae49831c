package io.okapigw.authtoken.bench;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * N distinct users log in at the same moment, each on a connection of its own (HAS's report: many
 * users logging in at once). Every login is sent before any answer arrives.
 */
final class LoginStorm {
  record Result(
      int logins,
      int ok,
      Map<String, Integer> failures,
      double totalSeconds,
      Latencies latencies) {}

  private LoginStorm() {}

  static Result run(Vertx vertx, int port, String tenant, int n, long timeoutMinutes)
      throws Exception {
    HttpClientAgent client =
        vertx.createHttpClient(
            new HttpClientOptions()
                .setDefaultHost("127.0.0.1")
                .setDefaultPort(port)
                .setConnectTimeout((int) TimeUnit.MINUTES.toMillis(5))
                .setKeepAlive(false),
            new PoolOptions().setHttp1MaxSize(n).setMaxWaitQueueSize(-1));
    long[] latencies = new long[n];
    AtomicInteger ok = new AtomicInteger();
    Map<String, Integer> failures = new TreeMap<>();
    List<Future<Void>> all = new ArrayList<>(n);
    long start = System.nanoTime();
    for (int i = 0; i < n; i++) {
      all.add(login(client, tenant, i, latencies, ok, failures));
    }
    try {
      Future.join(all).otherwiseEmpty().await(timeoutMinutes, TimeUnit.MINUTES);
    } catch (TimeoutException e) {
      long pending = all.stream().filter(f -> !f.isComplete()).count();
      count(failures, "not answered within " + timeoutMinutes + " min: " + pending);
    }
    double total = (System.nanoTime() - start) / 1e9;
    client.close().await();
    return new Result(n, ok.get(), failures, total, new Latencies(latencies, n));
  }

  private static Future<Void> login(
      HttpClientAgent client,
      String tenant,
      int i,
      long[] latencies,
      AtomicInteger ok,
      Map<String, Integer> failures) {
    Buffer body = AuthtokenBench.credentials("user" + i).toBuffer();
    long start = System.nanoTime();
    return client
        .request(
            new RequestOptions()
                .setMethod(HttpMethod.POST)
                .setURI("/authn/login")
                .putHeader("X-Okapi-Tenant", tenant)
                .putHeader("Content-Type", "application/json"))
        .compose(req -> req.send(body))
        .compose(resp -> resp.body().map(b -> resp.statusCode()))
        .map(
            status -> {
              latencies[i] = System.nanoTime() - start;
              if (status == 201) {
                ok.incrementAndGet();
              } else {
                count(failures, "HTTP " + status);
              }
              return (Void) null;
            })
        .recover(
            e -> {
              latencies[i] = System.nanoTime() - start;
              count(failures, e.getClass().getSimpleName());
              return Future.succeededFuture();
            });
  }

  /**
   * @return an access token of {@code username} (one login)
   */
  static String token(Vertx vertx, int port, String tenant, String username) {
    HttpClientAgent client =
        vertx.createHttpClient(
            new HttpClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(port));
    try {
      return client
          .request(
              new RequestOptions()
                  .setMethod(HttpMethod.POST)
                  .setURI("/authn/login")
                  .putHeader("X-Okapi-Tenant", tenant))
          .compose(req -> req.send(AuthtokenBench.credentials(username).toBuffer()))
          .map(resp -> resp.getHeader("X-Okapi-Token"))
          .await();
    } finally {
      client.close().await();
    }
  }

  private static void count(Map<String, Integer> failures, String kind) {
    synchronized (failures) {
      failures.merge(kind, 1, Integer::sum);
    }
  }
}
