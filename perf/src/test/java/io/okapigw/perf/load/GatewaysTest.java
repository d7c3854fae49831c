package io.okapigw.perf.load;

import static io.okapigw.perf.load.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.perf.kit.process.ListeningPid;
import io.okapigw.perf.load.GatewayClient.Counters;
import io.okapigw.perf.load.Gateways.Lost;
import io.okapigw.perf.load.Gateways.Readings;
import io.okapigw.testsupport.FreePorts;
import io.okapigw.testsupport.OnContext;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Spreading users over gateways, and what happens when one goes away. */
class GatewaysTest {

  private static final List<BarcodeRow> ROWS = List.of(new BarcodeRow("i", "u", "s"));

  private Vertx vertx;
  private final AtomicInteger answered = new AtomicInteger();
  private final AtomicInteger dropped = new AtomicInteger();
  private URI answering;
  private URI dropping;
  private URI refusing;

  @BeforeEach
  void start() throws Exception {
    vertx = Vertx.vertx();
    answering =
        url(
            await(
                vertx
                    .createHttpServer()
                    .requestHandler(
                        req -> {
                          answered.incrementAndGet();
                          req.response().end("{}");
                        })
                    .listen(0, "127.0.0.1")));
    dropping =
        url(
            await(
                vertx
                    .createHttpServer()
                    .requestHandler(
                        req -> {
                          dropped.incrementAndGet();
                          req.connection().close();
                        })
                    .listen(0, "127.0.0.1")));
    refusing = URI.create("http://127.0.0.1:" + FreePorts.closed());
  }

  @AfterEach
  void stop() throws Exception {
    await(vertx.close());
  }

  private static URI url(HttpServer server) {
    return URI.create("http://127.0.0.1:" + server.actualPort());
  }

  /** Gateways whose processes are not found (as on another machine): CPU from /_/metrics. */
  private Gateways gateways(URI... urls) {
    return new Gateways(vertx, List.of(urls), "diku", 4, port -> OptionalLong.empty());
  }

  @Test
  void users_startAtGatewayIdModN() {
    Gateways three = gateways(answering, dropping, refusing);

    assertThat(
            List.of(0, 1, 2, 3, 4).stream()
                .map(id -> new VirtualUser(id, ROWS, three.size()).gateway()))
        .containsExactly(0, 1, 2, 0, 1);
  }

  @Test
  void post_gatewayRefusesConnections_isTakenOutAndTheRequestGoesToOneStillIn() throws Exception {
    Gateways gateways = gateways(answering, refusing);
    VirtualUser user = new VirtualUser(1, ROWS, 2);

    GatewayClient.Answer answer = await(gateways.post(user, "/x", new JsonObject()));

    assertThat(answer.status()).isEqualTo(200);
    assertThat(answered).hasValue(1);
    assertThat(gateways.down()).containsExactly(1);
    assertThat(user.gateway()).isZero();
    await(gateways.close());
  }

  @Test
  void post_connectionDropsAfterSending_failsAsLostAndIsNotSentAgain() throws Exception {
    Gateways gateways = gateways(dropping, answering);
    VirtualUser user = new VirtualUser(0, ROWS, 2);

    Throwable failure =
        gateways
            .post(user, "/x", new JsonObject())
            .toCompletionStage()
            .toCompletableFuture()
            .handle((r, e) -> e)
            .get(Futures.PATIENCE.toMillis(), TimeUnit.MILLISECONDS);

    assertThat(failure).isInstanceOf(Lost.class);
    assertThat(((Lost) failure).gateway()).isZero();
    assertThat(dropped).hasValue(1);
    assertThat(answered).hasValue(0);
    assertThat(gateways.down())
        .as("a dropped connection alone does not take a gateway out")
        .isEmpty();
    await(gateways.close());
  }

  @Test
  void post_everyGatewayRefuses_failsNamingThem() throws Exception {
    Gateways gateways = gateways(refusing);

    Throwable failure =
        gateways
            .post(new VirtualUser(0, ROWS, 1), "/x", new JsonObject())
            .compose(a -> gateways.post(new VirtualUser(1, ROWS, 1), "/x", new JsonObject()))
            .toCompletionStage()
            .toCompletableFuture()
            .handle((r, e) -> e)
            .get(Futures.PATIENCE.toMillis(), TimeUnit.MILLISECONDS);

    assertThat(failure).hasMessageContaining(refusing.toString());
    assertThat(gateways.down()).containsExactly(0);
    await(gateways.close());
  }

  @Test
  void readings_since_countOnlyGatewaysThatAnsweredBothTimes() {
    Readings before =
        new Readings(
            Map.of(0, new Counters(10, 1e9), 1, new Counters(20, 2e9), 2, new Counters(30, 3e9)));
    Readings after = new Readings(Map.of(0, new Counters(15, 1.5e9), 1, new Counters(27, 2.25e9)));

    assertThat(after.authCallsSince(before)).isEqualTo(12.0);
    assertThat(after.cpuNanosSince(before)).isEqualTo(0.75e9);
  }

  @Test
  void detectMetrics_gatewayAnswers404_itReadsUnknownWithoutBeingAskedAgain() throws Exception {
    AtomicInteger asked = new AtomicInteger();
    URI okapi =
        url(
            await(
                vertx
                    .createHttpServer()
                    .requestHandler(
                        req -> {
                          asked.incrementAndGet();
                          req.response().setStatusCode(404).end(req.path());
                        })
                    .listen(0, "127.0.0.1")));
    Gateways gateways = gateways(answering, okapi, refusing);

    await(OnContext.run(vertx, gateways::detectMetrics));
    Readings before = await(OnContext.run(vertx, gateways::read));
    Readings after = await(OnContext.run(vertx, gateways::read));

    assertThat(gateways.metricsKnown()).isFalse();
    assertThat(gateways.withoutMetrics()).containsExactly(okapi + " (GET /_/metrics answered 404)");
    assertThat(gateways.down()).as("refused at detection: taken out").containsExactly(2);
    assertThat(after.byGateway().get(1)).isEqualTo(Counters.UNKNOWN);
    assertThat(after.authCallsSince(before)).isNaN();
    assertThat(after.cpuNanosSince(before)).isNaN();
    assertThat(asked).hasValue(1);
    assertThat(answered).as("the gateway with metrics: asked, then read twice").hasValue(3);
    await(gateways.close());
  }

  @Test
  void detectMetrics_everyGatewayAnswers200_metricsKnown() throws Exception {
    Gateways gateways = gateways(answering);

    await(OnContext.run(vertx, gateways::detectMetrics));

    assertThat(gateways.metricsKnown()).isTrue();
    assertThat(gateways.withoutMetrics()).isEmpty();
    await(gateways.close());
  }

  @Test
  void errorLog_lossesCountAsErrorsOnlyWhereTheGatewayStayedUp() {
    ErrorLog log = new ErrorLog();
    log.add("422");
    log.lost(0, "lost at 0");
    log.lost(0, "lost at 0 again");
    log.lost(1, "lost at 1");

    assertThat(log.count(Set.of(0))).isEqualTo(2);
    assertThat(log.lostAt(Set.of(0))).isEqualTo(2);
    assertThat(log.first(Set.of(0))).containsExactly("422", "lost at 1");
    assertThat(log.count(Set.of())).isEqualTo(4);
  }

  @Test
  void findProcesses_gatewayOfThisMachineWithoutMetrics_cpuFromProc() throws Exception {
    URI okapi =
        url(
            await(
                vertx
                    .createHttpServer()
                    .requestHandler(req -> req.response().setStatusCode(404).end())
                    .listen(0, "127.0.0.1")));
    Gateways gateways = new Gateways(vertx, List.of(okapi), "diku", 4, ListeningPid::ofJvm);
    await(OnContext.run(vertx, gateways::detectMetrics));
    await(OnContext.run(vertx, gateways::findProcesses));

    Readings before = await(OnContext.run(vertx, gateways::read));
    burnCpu(Duration.ofMillis(100));
    Readings after = await(OnContext.run(vertx, gateways::read));

    assertThat(gateways.metricsKnown()).isFalse();
    assertThat(after.authCallsSince(before)).isNaN();
    assertThat(after.cpuNanosSince(before))
        .as("this JVM listens on the port: its CPU, charged by the kernel")
        .isGreaterThanOrEqualTo(50e6);
    assertThat(gateways.cpuSource())
        .isEqualTo("/proc/PID/stat of pid " + ProcessHandle.current().pid());
    await(gateways.close());
  }

  @Test
  void findProcesses_twoGatewaysOfOneProcess_itsCpuCountsOnce() throws Exception {
    URI alsoAnswering =
        url(
            await(
                vertx
                    .createHttpServer()
                    .requestHandler(req -> req.response().end("{}"))
                    .listen(0, "127.0.0.1")));
    Gateways gateways =
        new Gateways(vertx, List.of(answering, alsoAnswering), "diku", 4, ListeningPid::ofJvm);
    await(OnContext.run(vertx, gateways::findProcesses));

    Readings reading = await(OnContext.run(vertx, gateways::read));

    assertThat(reading.byGateway().get(0).cpuNanos()).isPositive();
    assertThat(reading.byGateway().get(1).cpuNanos()).isZero();
    await(gateways.close());
  }

  /** Keeps this thread busy until it has used {@code cpu} of CPU time. */
  private static void burnCpu(Duration cpu) {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long until = threads.getCurrentThreadCpuTime() + cpu.toNanos();
    long sink = 0;
    while (threads.getCurrentThreadCpuTime() < until) {
      sink += Long.numberOfTrailingZeros(sink + System.nanoTime());
    }
    assertThat(sink).isNotNegative();
  }
}
