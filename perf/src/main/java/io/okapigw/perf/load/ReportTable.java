package io.okapigw.perf.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Markdown tables of {@link RunReport}s: one row per operation, then {@code both}. */
final class ReportTable {

  static final String BASELINE = "cache off";

  private static final String FIGURES =
      "ops | RPS | mean ms | p50 ms | p90 ms | p99 ms | max ms" + " | errors | auth calls/op";

  private ReportTable() {}

  /**
   * @return the table of one run, without mode and ratio columns
   */
  static String single(RunReport report) {
    List<String> lines = new ArrayList<>();
    lines.add("| operation | " + FIGURES + " |");
    lines.add("|---|" + "---:|".repeat(9));
    for (OperationSummary op : operations(report)) {
      lines.add("| " + op.name() + " | " + figures(report, op) + " |");
    }
    return String.join("\n", lines);
  }

  /**
   * @param reports runs with the same user count, one per mode
   * @return their table, with ratios to the {@value #BASELINE} run (if there is one)
   */
  static String compared(List<RunReport> reports) {
    return compared(reports, BASELINE);
  }

  /**
   * @param reports runs with the same user count, one per mode
   * @param baselineMode the mode the ratios are to
   * @return their table, with ratios to the baseline run (if there is one)
   */
  static String compared(List<RunReport> reports, String baselineMode) {
    RunReport baseline =
        reports.stream().filter(r -> r.mode().equals(baselineMode)).findFirst().orElse(null);
    List<String> lines = new ArrayList<>();
    lines.add(
        "| mode | operation | "
            + FIGURES
            + " | mean ÷ "
            + baselineMode
            + " | RPS ÷ "
            + baselineMode
            + " |");
    lines.add("|---|---|" + "---:|".repeat(11));
    for (RunReport report : reports) {
      List<OperationSummary> ops = operations(report);
      for (int i = 0; i < ops.size(); i++) {
        OperationSummary op = ops.get(i);
        OperationSummary base = baseline == null ? null : operations(baseline).get(i);
        lines.add(
            "| "
                + report.mode()
                + " | "
                + op.name()
                + " | "
                + figures(report, op)
                + " | "
                + ratio(op.mean(), base == null ? Double.NaN : base.mean())
                + " | "
                + ratio(op.rps(), base == null ? Double.NaN : base.rps())
                + " |");
      }
    }
    return String.join("\n", lines);
  }

  /**
   * @return one line "- error (mode): ..." per first error of each report
   */
  static String errorLines(List<RunReport> reports) {
    StringBuilder text = new StringBuilder();
    reports.forEach(
        r -> r.firstErrors().forEach(e -> text.append("- error (" + r.mode() + "): " + e + "\n")));
    return text.toString();
  }

  /**
   * @return how the auth calls per operation of this run were obtained, or why they are n/a
   */
  static String authNote(RunReport r) {
    if (!r.metricsKnown()) {
      return "auth calls/op: n/a, unknown: no /_/metrics at "
          + String.join(", ", r.withoutMetrics())
          + " (Okapi has none); no probe run";
    }
    AuthProbe.Result p = r.probe();
    return String.format(
        Locale.ROOT,
        "auth calls/op: both = %.0f auth calls during the measured"
            + " run / %d operations; check-out and check-in = probe after the run (%d rounds, all"
            + " users checking out together, then in): %.0f calls / %d check-outs, %.0f calls / %d"
            + " check-ins",
        r.runAuthCalls(),
        r.both().count(),
        r.plan().probeRounds(),
        p.checkOutCalls(),
        p.checkOuts(),
        p.checkInCalls(),
        p.checkIns());
  }

  /**
   * @return the gateways' CPU time per operation of the measured run, or why it is n/a
   */
  static String cpuNote(RunReport r) {
    double ms = r.gatewayCpuMsPerOperation();
    if (!Double.isNaN(ms)) {
      return String.format(
          Locale.ROOT, "gateway CPU: %.2f ms per operation (all its JVMs; %s)", ms, r.cpuSource());
    }
    if (!r.metricsKnown()) {
      return "gateway CPU: n/a, unknown: its process not found on this machine by its port, and no"
          + " /_/metrics at "
          + String.join(", ", r.withoutMetrics());
    }
    return "gateway CPU: n/a (its process not found on this machine by its port, and it reports no"
        + " process_cpu_time_ns_total)";
  }

  private static List<OperationSummary> operations(RunReport r) {
    return List.of(r.checkOut(), r.checkIn(), r.both());
  }

  private static String figures(RunReport r, OperationSummary op) {
    double auth =
        switch (op.name()) {
          case "check-out" -> r.probe().perCheckOut();
          case "check-in" -> r.probe().perCheckIn();
          default -> r.authCallsPerOperation();
        };
    return String.format(
        Locale.ROOT,
        "%d | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %d | %s",
        op.count(),
        op.rps(),
        op.mean(),
        op.p50(),
        op.p90(),
        op.p99(),
        op.max(),
        op.errors(),
        !r.metricsKnown()
            ? "n/a"
            : Double.isNaN(auth) ? "–" : String.format(Locale.ROOT, "%.2f", auth));
  }

  private static String ratio(double value, double base) {
    return Double.isNaN(base) || base == 0 ? "–" : String.format(Locale.ROOT, "%.2f", value / base);
  }
}
