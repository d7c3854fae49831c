package io.okapigw.perf.load;

import static io.okapigw.perf.load.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.demo.DemoOptions;
import io.okapigw.demo.DemoStack;
import io.vertx.core.Vertx;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The load driver against in-process demo stacks (free ports, temporary data directories). */
class LoadDriverTest {

  @TempDir static Path dataDirs;

  private static Vertx vertx;
  private static DemoStack cacheOn;

  @BeforeAll
  static void startStacks() throws Exception {
    vertx = Vertx.vertx();
    cacheOn =
        await(
            DemoStack.start(
                vertx, new DemoOptions(0, 200, 200, true, true, dataDirs.resolve("cache-on"))));
  }

  @AfterAll
  static void stopStacks() throws Exception {
    await(cacheOn.close().compose(v -> vertx.close()));
  }

  private static LoadPlan plan(
      DemoStack stack, int users, Duration duration, int probeRounds, long maxOperations) {
    return new LoadPlan(
        List.of(URI.create(stack.gatewayUrl())),
        "diku",
        DemoOptions.ADMIN,
        DemoOptions.ADMIN_PASSWORD,
        users,
        Duration.ofSeconds(1),
        duration,
        probeRounds,
        maxOperations);
  }

  @Test
  void run_twoUsersForThreeSecondsOnTheDemoCsv_checksOutAndInWithoutErrors() throws Exception {
    List<BarcodeRow> rows =
        await(BarcodeRows.read(vertx, dataDirs.resolve("cache-on/barcodes.csv")));

    RunReport report =
        await(
            LoadDriver.run(
                vertx, plan(cacheOn, 2, Duration.ofSeconds(3), 1, 1_000_000), rows, "cache on"));

    assertThat(report.errors()).as("errors: %s", report.firstErrors()).isZero();
    assertThat(report.checkOut().count()).isPositive();
    assertThat(report.checkIn().count()).isEqualTo(report.checkOut().count());
    assertThat(report.checkOut().rps()).isPositive();
    assertThat(report.checkOut().p99()).isGreaterThanOrEqualTo(report.checkOut().p50());
    assertThat(report.gatewayCpuMsPerOperation())
        .as("the in-process gateway's JVM CPU")
        .isPositive();
    assertThat(report.probe().checkOuts()).isEqualTo(2);
    assertThat(report.probe().perCheckOut()).isLessThanOrEqualTo(1.0);
    assertThat(report.probe().perCheckIn()).isLessThanOrEqualTo(1.0);
  }

  @Test
  void compare_threeModes_reportsEachInOrderWithItsAuthCalls() throws Exception {
    LoadOptions options =
        LoadOptions.from(
            LoadOptions.SPEC.read(
                List.of(
                    "--compare",
                    "true",
                    "--users",
                    "1",
                    "--duration",
                    "2s",
                    "--slices",
                    "2",
                    "--warmup",
                    "0s",
                    "--jvm-warmup",
                    "0s",
                    "--items",
                    "20",
                    "--patrons",
                    "20",
                    "--probe-rounds",
                    "1")));

    List<RunReport> reports = await(Comparison.run(vertx, options));

    assertThat(reports)
        .extracting(RunReport::mode)
        .containsExactly("auth off", "cache off", "cache on");
    assertThat(reports)
        .allSatisfy(
            r -> {
              assertThat(r.errors()).as("%s errors: %s", r.mode(), r.firstErrors()).isZero();
              assertThat(r.checkOut().count()).isPositive();
              assertThat(r.elapsed()).isGreaterThanOrEqualTo(Duration.ofSeconds(2));
            });
    assertThat(reports.get(0).authCallsPerOperation()).isZero();
    assertThat(reports.get(1).probe().perCheckOut()).isGreaterThan(10);
    assertThat(reports.get(1).probe().perCheckIn()).isGreaterThan(10);
    assertThat(reports.get(2).probe().perCheckOut()).isLessThanOrEqualTo(1.0);
  }

  @Test
  void run_maxOperationsReached_stopsBeforeTheDuration() throws Exception {
    LoadPlan noWarmup =
        new LoadPlan(
            List.of(URI.create(cacheOn.gatewayUrl())),
            "diku",
            DemoOptions.ADMIN,
            DemoOptions.ADMIN_PASSWORD,
            2,
            Duration.ZERO,
            Duration.ofMinutes(10),
            0,
            10);

    RunReport report =
        await(LoadDriver.run(vertx, noWarmup, BarcodeRows.of(cacheOn.data()), "cache on"));

    assertThat(report.both().count()).isEqualTo(10);
    assertThat(report.errors()).isZero();
    assertThat(report.elapsed()).isLessThan(noWarmup.duration());
  }

  @Test
  void run_oneOfTwoGatewaysRefusesConnections_itsUsersMoveOnWithoutErrors() throws Exception {
    URI refusing;
    try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
      refusing = URI.create("http://127.0.0.1:" + free.getLocalPort());
    }
    LoadPlan plan =
        new LoadPlan(
            List.of(URI.create(cacheOn.gatewayUrl()), refusing),
            "diku",
            DemoOptions.ADMIN,
            DemoOptions.ADMIN_PASSWORD,
            4,
            Duration.ZERO,
            Duration.ofMinutes(10),
            0,
            40);

    RunReport report =
        await(LoadDriver.run(vertx, plan, BarcodeRows.of(cacheOn.data()), "two gateways"));

    assertThat(report.errors()).as("errors: %s", report.firstErrors()).isZero();
    assertThat(report.both().count()).isEqualTo(40);
    assertThat(report.downGateways()).containsExactly(refusing.toString());
    assertThat(report.lostInFlight()).isZero();
  }

  @Test
  void execute_againstTheRunningDemo_exitsZero() {
    int exit =
        LoadCommand.execute(
            LoadOptions.from(
                LoadOptions.SPEC.read(
                    List.of(
                        "--gateway",
                        cacheOn.gatewayUrl(),
                        "--barcodes",
                        dataDirs.resolve("cache-on/barcodes.csv").toString(),
                        "--users",
                        "2",
                        "--duration",
                        "2s",
                        "--warmup",
                        "0s",
                        "--probe-rounds",
                        "0"))));

    assertThat(exit).isZero();
  }
}
