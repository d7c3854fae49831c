package io.okapigw.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.demo.DemoOptions;
import io.okapigw.demo.Library;
import io.okapigw.perf.load.BarcodeRow;
import io.okapigw.perf.load.BarcodeRows;
import io.okapigw.perf.load.LoadDriver;
import io.okapigw.perf.load.LoadPlan;
import io.okapigw.perf.load.RunReport;
import io.okapigw.testsupport.process.GatewayCluster;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The check-out/check-in load driver on three gateway nodes in separate JVMs, with the simulated
 * library behind them; one node is killed (kill -9) mid-load.
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class ClusterLoadTest {

  private static final int USERS = 6;
  private static final int KILLED = 2;

  @TempDir static Path dir;

  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static LibraryOnCluster env;
  private static Vertx vertx;
  private static GatewayCluster cluster;
  private static Library library;

  @BeforeAll
  static void start() throws Exception {
    env = LibraryOnCluster.start(3, List.of(), 300, dir);
    vertx = env.vertx();
    cluster = env.cluster();
    library = env.library();
  }

  @AfterAll
  static void stop() throws Exception {
    if (env != null) {
      env.close();
    }
  }

  /** Warm-up operations count against {@code maxOperations}. */
  private static LoadPlan plan(List<String> urls, Duration warmup, long maxOperations) {
    return new LoadPlan(
        urls.stream().map(URI::create).toList(),
        DemoOptions.TENANT,
        DemoOptions.ADMIN,
        DemoOptions.ADMIN_PASSWORD,
        USERS,
        warmup,
        Duration.ofSeconds(10),
        0,
        maxOperations);
  }

  @Test
  void nodeKilledMidLoad_noFailuresButThoseInFlightThere_andItRejoinsAndServes() throws Exception {
    LoadPlan load = plan(cluster.urls(), Duration.ofSeconds(2), 1_000_000);
    // items the kill may leave half done are never used by the rejoined node's run
    List<BarcodeRow> rows = BarcodeRows.of(library.data());
    List<BarcodeRow> beforeKill = rows.subList(0, 200);
    List<BarcodeRow> afterRejoin = rows.subList(200, rows.size());
    LoadDriver driver =
        LoadDriver.start(vertx, load, beforeKill, "3 nodes").await(3, TimeUnit.MINUTES);
    double servedBefore = requestsServed(KILLED);

    Future<Void> measured = driver.measure(Duration.ofSeconds(15));
    awaitServed(KILLED, servedBefore + 200);
    assertThat(measured.isComplete()).as("the kill comes while the load runs").isFalse();
    cluster.kill(KILLED);
    measured.await(3, TimeUnit.MINUTES);
    RunReport report = driver.finish().await(1, TimeUnit.MINUTES);

    assertThat(report.errors()).as("errors: %s", report.firstErrors()).isZero();
    assertThat(report.downGateways()).containsExactly(cluster.url(KILLED));
    assertThat(report.lostInFlight())
        .as("at most one in flight per user at the killed node")
        .isLessThanOrEqualTo(USERS / 3);
    assertThat(report.checkOut().count()).isPositive();
    assertThat(report.checkIn().count()).isPositive();

    cluster.awaitMembers(2);
    cluster.restart(KILLED, 3);
    LoadPlan rejoin = plan(List.of(cluster.url(KILLED)), Duration.ZERO, 24);
    RunReport rejoined =
        LoadDriver.run(vertx, rejoin, afterRejoin, "rejoined node").await(3, TimeUnit.MINUTES);
    assertThat(rejoined.errors()).as("errors: %s", rejoined.firstErrors()).isZero();
    assertThat(rejoined.checkOut().count()).isPositive();
  }

  /** Waits (at most 2 minutes) until node {@code i} has served {@code count} requests. */
  private static void awaitServed(int i, double count) throws Exception {
    Instant deadline = Instant.now().plus(Duration.ofMinutes(2));
    while (requestsServed(i) < count) {
      assertThat(Instant.now()).as("node %d serving %s requests", i, count).isBefore(deadline);
      TimeUnit.MILLISECONDS.sleep(20);
    }
  }

  /**
   * @return the requests node {@code i} has answered for the tenant, from its metrics
   */
  private static double requestsServed(int i) throws Exception {
    String metrics =
        HTTP.send(
                HttpRequest.newBuilder(URI.create(cluster.url(i) + "/_/metrics")).build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    return metrics
        .lines()
        .filter(l -> l.startsWith("okapi_requests_seconds_count{") && l.contains("tenant=\"diku\""))
        .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
        .sum();
  }
}
