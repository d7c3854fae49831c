package io.okapigw.perf.load.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.perf.load.OperationSummary;
import io.okapigw.perf.load.PhaseFigures;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FaultReportTest {

  private static PhaseFigures phase(double checkOutP99, Map<String, Long> errors) {
    OperationSummary out =
        new OperationSummary("check-out", 100, 0, 10, 40, 30, 60, checkOutP99, 90);
    OperationSummary in = new OperationSummary("check-in", 100, 0, 10, 20, 15, 30, 45.25, 50);
    OperationSummary both = new OperationSummary("both", 200, 0, 20, 30, 25, 50, 70, 90);
    return new PhaseFigures(Duration.ofMillis(10_050), out, in, both, errors);
  }

  @Test
  void line_showsRateLatenciesAndErrorsByKind() {
    PhaseFigures f = phase(80, Map.of("lost in flight", 2L, "502", 12L));

    String line = FaultReport.line(new FaultReport.Row("diku, 8 users", "down", "killed", f));

    assertThat(line)
        .isEqualTo(
            "| diku, 8 users | down | killed | 10.1 | 20.0 | 30.0 / 80.0 | 15.0 / 45.3 | 14 |"
                + " 502 ×12, lost in flight ×2 |");
  }

  @Test
  void line_noCheckIns_aDashNotZeroLatencies() {
    OperationSummary none = new OperationSummary("check-in", 0, 0, 0, 0, 0, 0, 0, 0);
    PhaseFigures p = phase(80, Map.of("502", 3L));
    PhaseFigures f = new PhaseFigures(p.elapsed(), p.checkOut(), none, p.both(), p.errorKinds());

    assertThat(FaultReport.line(new FaultReport.Row("diku", "down", "killed", f)))
        .contains("| 30.0 / 80.0 | – | 3 | 502 ×3 |");
  }

  @Test
  void text_tableNotesAndTargetsMetOrMissed() {
    String text =
        new FaultReport("kill")
            .row("diku", "before", "2 instances", phase(80, Map.of()))
            .note("instance 2 listened again 1.0 s after its restart began")
            .target("after it came back: 0", true)
            .target("taken back within 5 s", false)
            .text();

    assertThat(text)
        .startsWith("### kill\n\n" + FaultReport.HEADER)
        .contains("| diku | before | 2 instances | 10.1 |")
        .contains("- instance 2 listened again 1.0 s after its restart began\n")
        .contains("- Target: after it came back: 0: **met**\n")
        .contains("- Target: taken back within 5 s: **missed**\n");
  }

  @Test
  void killMet_atMostOneFailurePerUserWhileDown_noneAfter() {
    PhaseFigures none = phase(80, Map.of());
    PhaseFigures five = phase(80, Map.of("502", 5L));
    PhaseFigures four = phase(80, Map.of("lost in flight", 4L));

    assertThat(FaultReport.killMet(8, List.of(five, none), none)).isTrue();
    assertThat(FaultReport.killMet(8, List.of(five, four), none)).isFalse();
    assertThat(FaultReport.killMet(8, List.of(none, none), four)).isFalse();
  }

  @Test
  void p99Ratio_floodOverBaseline() {
    assertThat(FaultReport.p99Ratio(phase(80, Map.of()), phase(120, Map.of()))).isEqualTo(1.5);
  }
}
