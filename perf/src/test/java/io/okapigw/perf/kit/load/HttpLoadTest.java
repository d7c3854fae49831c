package io.okapigw.perf.kit.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.perf.kit.latency.Latencies;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class HttpLoadTest {

  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() {
    vertx.close().await();
  }

  private HttpLoadSpec spec(int port, int clients, int requests, Duration limit, long bytes) {
    return new HttpLoadSpec(
        clients,
        requests,
        limit,
        i ->
            new RequestOptions()
                .setMethod(HttpMethod.GET)
                .setAbsoluteURI("http://127.0.0.1:" + port + "/x?i=" + i),
        bytes);
  }

  @Test
  void run_countsEveryRequestOnce_andTheBytes() {
    AtomicInteger served = new AtomicInteger();
    int port =
        vertx
            .createHttpServer()
            .requestHandler(
                req -> {
                  served.incrementAndGet();
                  req.response().end("0123456789");
                })
            .listen(0, "127.0.0.1")
            .await()
            .actualPort();
    HttpLoadResult result =
        HttpLoad.run(vertx, spec(port, 3, 50, Duration.ofSeconds(30), 10)).await();
    assertThat(result.completed()).isEqualTo(50);
    assertThat(served.get()).isEqualTo(50);
    assertThat(result.errors()).isZero();
    assertThat(result.bytes()).isEqualTo(500);
    assertThat(result.duration().count()).isEqualTo(50);
    assertThat(result.ttfb().mean()).isLessThanOrEqualTo(result.duration().mean());
    assertThat(result.rps()).isPositive();
    assertThat(result.cut()).isFalse();
  }

  @Test
  void run_countsWrongStatusAndWrongLengthAsErrors() {
    int port =
        vertx
            .createHttpServer()
            .requestHandler(
                req ->
                    req.response()
                        .setStatusCode(req.query().endsWith("=0") ? 500 : 200)
                        .end("short"))
            .listen(0, "127.0.0.1")
            .await()
            .actualPort();
    HttpLoadResult result =
        HttpLoad.run(vertx, spec(port, 1, 3, Duration.ofSeconds(30), 10)).await();
    assertThat(result.errors()).isEqualTo(3);
    assertThat(result.firstError()).isEqualTo("status 500");
  }

  @Test
  void combine_poolsSamplesAndAddsCounts() {
    HttpLoadResult a =
        new HttpLoadResult(
            2,
            0,
            null,
            1_000_000_000L,
            20,
            Latencies.of(1, 2),
            Latencies.of(1_000_000, 3_000_000),
            false);
    HttpLoadResult b =
        new HttpLoadResult(
            3,
            1,
            "status 500",
            1_000_000_000L,
            30,
            Latencies.of(1, 2),
            Latencies.of(2_000_000, 2_000_000),
            false);
    HttpLoadResult both = HttpLoadResult.combine(List.of(a, b));
    assertThat(both.completed()).isEqualTo(5);
    assertThat(both.errors()).isEqualTo(1);
    assertThat(both.firstError()).isEqualTo("status 500");
    assertThat(both.rps()).isEqualTo(2.5);
    assertThat(both.duration().count()).isEqualTo(4);
    assertThat(both.duration().mean()).isEqualTo(2.0);
    assertThat(both.duration().p50()).isEqualTo(2.0);
    assertThat(both.duration().max()).isEqualTo(3.0);
  }

  @Test
  void run_pastTheTimeLimit_isCut() {
    int port =
        vertx
            .createHttpServer()
            .requestHandler(req -> {}) // never answers
            .listen(0, "127.0.0.1")
            .await()
            .actualPort();
    HttpLoadResult result =
        HttpLoad.run(vertx, spec(port, 2, 10, Duration.ofMillis(300), -1)).await();
    assertThat(result.cut()).isTrue();
    assertThat(result.completed()).isZero();
  }
}
