package io.okapigw.perf.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The table and the summary line of {@code checkout-checkin --vs}: ratios to the other gateway. */
class VersusReportTest {

  private static final LoadOptions OPTIONS =
      LoadOptions.from(
          LoadOptions.SPEC.read(
              List.of(
                  "--gateway",
                  "http://127.0.0.1:9270",
                  "--vs",
                  "http://127.0.0.1:9260",
                  "--users",
                  "8",
                  "--duration",
                  "60s",
                  "--slices",
                  "6",
                  "--items",
                  "10")));

  private static RunReport report(
      String mode,
      URI url,
      double rps,
      double outMean,
      double inMean,
      double cpuNanos,
      List<String> withoutMetrics) {
    LoadPlan plan =
        new LoadPlan(
            List.of(url),
            "diku",
            "diku_admin",
            "admin",
            8,
            Duration.ofSeconds(5),
            Duration.ofSeconds(60),
            3,
            1000);
    OperationSummary out = new OperationSummary("check-out", 600, 0, rps / 2, outMean, 1, 2, 3, 4);
    OperationSummary in = new OperationSummary("check-in", 600, 0, rps / 2, inMean, 1, 2, 3, 4);
    OperationSummary both =
        new OperationSummary("both", 1200, 0, rps, (outMean + inMean) / 2, 1, 2, 3, 4);
    AuthProbe.Result probe =
        withoutMetrics.isEmpty() ? new AuthProbe.Result(24, 0, 24, 0) : AuthProbe.Result.NONE;
    return new RunReport(
        mode,
        plan,
        Duration.ofSeconds(60),
        out,
        in,
        both,
        withoutMetrics.isEmpty() ? 12 : Double.NaN,
        probe,
        0,
        List.of(),
        List.of(),
        0,
        cpuNanos,
        "/proc/PID/stat of pid 42",
        withoutMetrics);
  }

  private static final RunReport OURS =
      report(Versus.GATEWAY, URI.create("http://127.0.0.1:9270"), 300, 30, 20, 2.4e9, List.of());
  private static final RunReport OKAPI =
      report(
          Versus.VS,
          URI.create("http://127.0.0.1:9260"),
          200,
          40,
          25,
          3.6e9,
          List.of("http://127.0.0.1:9260 (GET /_/metrics answered 404)"));

  @Test
  void summary_givesThroughputAndMeanLatencyAsMultiplesOfTheOther() {
    assertThat(VersusReport.summary(OURS, OKAPI, Versus.GATEWAY, Versus.VS))
        .isEqualTo(
            "gateway ÷ vs: 1.50x the check-outs + check-ins per second; mean latency 0.77x"
                + " (check-out 0.75x, check-in 0.80x); gateway CPU per operation 0.67x (2.00 ms"
                + " ÷ 3.00 ms)");
  }

  @Test
  void summary_otherWithoutOperations_saysNotAvailable() {
    RunReport idle = report(Versus.VS, URI.create("http://127.0.0.1:9260"), 0, 0, 0, 0, List.of());

    assertThat(VersusReport.summary(OURS, idle, Versus.GATEWAY, Versus.VS))
        .contains("n/a the check-outs")
        .doesNotContain("Infinity")
        .doesNotContain("NaN");
  }

  @Test
  void text_hasBothGatewaysRowsWithRatiosToTheOther() {
    String text = VersusReport.text(OPTIONS, List.of(OURS, OKAPI));

    assertThat(text)
        .contains(
            "### 8 users: http://127.0.0.1:9270 vs http://127.0.0.1:9260",
            "gateway = http://127.0.0.1:9270, vs = http://127.0.0.1:9260",
            "6 interleaved slices of 10.0 s",
            "| mean ÷ vs | RPS ÷ vs |",
            "| gateway | check-out | 600 | 150.0 | 30.0 |",
            "| 0.75 | 1.50 |",
            "| vs | check-out | 600 | 100.0 | 40.0 |",
            "| 1.00 | 1.00 |",
            "- vs: auth calls/op: n/a, unknown: no /_/metrics at http://127.0.0.1:9260",
            "- vs: auth calls/op: n/a",
            "gateway CPU: 3.00 ms per operation");
    assertThat(text.lines().filter(l -> l.startsWith("| gateway |"))).hasSize(3);
    assertThat(text.lines().filter(l -> l.startsWith("| vs |"))).hasSize(3);
  }

  @Test
  void text_withBaseline_givesEachGatewaysRatiosAndOursToTheBaseline() {
    RunReport before =
        report(Versus.BASELINE, URI.create("http://127.0.0.1:9280"), 30, 50, 30, 3.0e9, List.of());

    String text = VersusReport.text(OPTIONS, List.of(OURS, OKAPI, before));

    assertThat(text)
        .contains(
            "gateway ÷ vs: 1.50x",
            "baseline ÷ vs: ",
            "gateway ÷ baseline: ",
            "| baseline | check-out |");
  }
}
