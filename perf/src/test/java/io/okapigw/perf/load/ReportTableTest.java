package io.okapigw.perf.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The printed figures of one run, with the gateway's metrics and without them (Okapi). */
class ReportTableTest {

  private static final LoadPlan PLAN =
      new LoadPlan(
          List.of(URI.create("http://127.0.0.1:9130")),
          "diku",
          "diku_admin",
          "admin",
          8,
          Duration.ofSeconds(5),
          Duration.ofSeconds(60),
          3,
          1000);

  private static RunReport report(double authCalls, double cpuNanos, List<String> without) {
    OperationSummary out = new OperationSummary("check-out", 100, 0, 50, 10, 9, 12, 20, 30);
    OperationSummary in = new OperationSummary("check-in", 100, 0, 50, 8, 7, 10, 15, 25);
    OperationSummary both = new OperationSummary("both", 200, 0, 100, 9, 8, 11, 18, 30);
    AuthProbe.Result probe =
        without.isEmpty() ? new AuthProbe.Result(24, 24, 24, 0) : AuthProbe.Result.NONE;
    return new RunReport(
        "http://127.0.0.1:9130",
        PLAN,
        Duration.ofSeconds(2),
        out,
        in,
        both,
        authCalls,
        probe,
        0,
        List.of(),
        List.of(),
        0,
        cpuNanos,
        "/proc/PID/stat of pid 42",
        without);
  }

  @Test
  void single_withMetrics_showsAuthCallsPerOperation() {
    String table = ReportTable.single(report(100, 400e6, List.of()));

    assertThat(table)
        .contains(
            "| check-out | 100 | 50.0 | 10.0 | 9.0 | 12.0 | 20.0 | 30.0 | 0" + " | 1.00 |",
            "| check-in | 100 | 50.0 | 8.0 |",
            "| 0 | 0.00 |",
            "| both | 200 |",
            "| 0 | 0.50 |");
  }

  @Test
  void notes_withMetrics_giveTheCountsAndTheCpu() {
    RunReport r = report(100, 400e6, List.of());

    assertThat(ReportTable.authNote(r))
        .contains(
            "100 auth calls during the measured run / 200" + " operations",
            "24 calls / 24 check-outs");
    assertThat(ReportTable.cpuNote(r))
        .isEqualTo("gateway CPU: 2.00 ms per operation (all its JVMs; /proc/PID/stat of pid 42)");
  }

  @Test
  void cpuNote_metricsWithoutCpuTime_saysSo() {
    assertThat(ReportTable.cpuNote(report(100, Double.NaN, List.of())))
        .startsWith("gateway CPU: n/a")
        .contains("process_cpu_time_ns_total");
  }

  @Test
  void single_withoutMetrics_showsNotAvailableForAuthCalls() {
    RunReport r =
        report(
            Double.NaN, Double.NaN, List.of("http://127.0.0.1:9260 (GET /_/metrics answered 404)"));

    assertThat(ReportTable.single(r))
        .contains("| check-out | 100 | 50.0 | 10.0 |")
        .doesNotContain("NaN")
        .doesNotContain("–");
    assertThat(ReportTable.single(r).lines().skip(2))
        .allSatisfy(row -> assertThat(row).endsWith("| n/a |"));
    assertThat(ReportTable.authNote(r))
        .isEqualTo(
            "auth calls/op: n/a, unknown: no /_/metrics"
                + " at http://127.0.0.1:9260 (GET /_/metrics answered 404) (Okapi has none); no probe"
                + " run");
    assertThat(ReportTable.cpuNote(r))
        .isEqualTo(
            "gateway CPU: n/a, unknown: its process not found on this machine by its port, and no"
                + " /_/metrics at http://127.0.0.1:9260 (GET /_/metrics answered 404)");
  }

  @Test
  void cpuNote_withoutMetricsButProcessFound_givesTheCpu() {
    RunReport r =
        report(Double.NaN, 600e6, List.of("http://127.0.0.1:9260 (GET /_/metrics answered 404)"));

    assertThat(ReportTable.cpuNote(r))
        .isEqualTo("gateway CPU: 3.00 ms per operation (all its JVMs; /proc/PID/stat of pid 42)");
    assertThat(ReportTable.authNote(r)).startsWith("auth calls/op: n/a");
  }
}
