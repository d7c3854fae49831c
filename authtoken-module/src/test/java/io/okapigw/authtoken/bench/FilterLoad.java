package io.okapigw.authtoken.bench;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Filter decisions for one valid token, as the gateway asks them: {@code C} connections, each
 * sending its next request when the previous answer arrived, for a fixed time (and at most a fixed
 * count).
 */
final class FilterLoad {
  record Result(int connections, int requests, int non202, double seconds, Latencies latencies) {
    double perSecond() {
      return requests / seconds;
    }
  }

  private FilterLoad() {}

  static Result run(
      Vertx vertx, int port, String tenant, String token, int connections, long seconds, int max)
      throws Exception {
    HttpClientAgent client =
        vertx.createHttpClient(
            new HttpClientOptions()
                .setDefaultHost("127.0.0.1")
                .setDefaultPort(port)
                .setKeepAlive(true),
            new PoolOptions().setHttp1MaxSize(connections));
    RequestOptions request =
        new RequestOptions()
            .setMethod(HttpMethod.POST)
            .setURI("/circulation/check-out-by-barcode")
            .putHeader("X-Okapi-Filter", "auth")
            .putHeader("X-Okapi-Tenant", tenant)
            .putHeader("X-Okapi-Token", token)
            .putHeader("X-Okapi-Request-Id", "bench")
            .putHeader("X-Okapi-Url", "http://127.0.0.1:9130")
            .putHeader("X-Okapi-Permissions-Required", "[\"" + AuthtokenBench.PERMISSION + "\"]")
            .putHeader(
                "X-Okapi-Module-Permissions", "{\"mod-circulation-24.0.0\":[\"bench.modperm\"]}");
    long[] latencies = new long[max];
    AtomicInteger next = new AtomicInteger();
    AtomicInteger non202 = new AtomicInteger();
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    long start = System.nanoTime();
    List<Future<Void>> lanes = new ArrayList<>();
    for (int c = 0; c < connections; c++) {
      Promise<Void> lane = Promise.promise();
      loop(client, request, latencies, next, non202, end, max, lane);
      lanes.add(lane.future());
    }
    Future.all(lanes).await(seconds + 60, TimeUnit.SECONDS);
    double elapsed = (System.nanoTime() - start) / 1e9;
    client.close().await();
    int count = Math.min(next.get(), max);
    return new Result(connections, count, non202.get(), elapsed, new Latencies(latencies, count));
  }

  private static void loop(
      HttpClientAgent client,
      RequestOptions request,
      long[] latencies,
      AtomicInteger next,
      AtomicInteger non202,
      long end,
      int max,
      Promise<Void> lane) {
    if (System.nanoTime() >= end) {
      lane.tryComplete();
      return;
    }
    int i = next.getAndIncrement();
    if (i >= max) {
      lane.tryComplete();
      return;
    }
    long t0 = System.nanoTime();
    client
        .request(request)
        .compose(req -> req.send())
        .compose(resp -> resp.body().map(b -> resp.statusCode()))
        .onComplete(
            ar -> {
              latencies[i] = System.nanoTime() - t0;
              if (ar.failed() || ar.result() != 202) {
                non202.incrementAndGet();
              }
              loop(client, request, latencies, next, non202, end, max, lane);
            });
  }
}
