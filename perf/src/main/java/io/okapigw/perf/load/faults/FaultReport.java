package io.okapigw.perf.load.faults;

import io.okapigw.perf.load.OperationSummary;
import io.okapigw.perf.load.PhaseFigures;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a fault scenario prints: one markdown table row per load and phase (ops/s, latency of
 * check-out and check-in, errors by kind), then notes (what happened when) and the targets, each
 * met or missed.
 */
final class FaultReport {

  static final String HEADER =
      "| load | phase | what happened | s | ops/s | check-out p50 / p99 ms | check-in p50 / p99 ms"
          + " | errors | errors by kind |\n"
          + "|---|---|---|---:|---:|---:|---:|---:|---|\n";

  /**
   * One row.
   *
   * @param load whose load ({@code diku, 8 users})
   * @param phase {@code before}, {@code during}, ...
   * @param event what happened at its start
   * @param figures what was measured
   */
  record Row(String load, String phase, String event, PhaseFigures figures) {}

  private final String title;
  private final List<Row> rows = new ArrayList<>();
  private final List<String> notes = new ArrayList<>();
  private final List<String> targets = new ArrayList<>();

  FaultReport(String title) {
    this.title = title;
  }

  FaultReport row(String load, String phase, String event, PhaseFigures figures) {
    rows.add(new Row(load, phase, event, figures));
    return this;
  }

  FaultReport note(String note) {
    notes.add(note);
    return this;
  }

  /**
   * @param what the target and the figure, e.g. {@code errors after the restart: 0 (target 0)}
   */
  FaultReport target(String what, boolean met) {
    targets.add(what + ": **" + (met ? "met" : "missed") + "**");
    return this;
  }

  /**
   * @return the table, the notes and the targets, in markdown
   */
  String text() {
    StringBuilder out = new StringBuilder("### ").append(title).append("\n\n").append(HEADER);
    rows.forEach(r -> out.append(line(r)).append('\n'));
    out.append('\n');
    notes.forEach(n -> out.append("- ").append(n).append('\n'));
    targets.forEach(t -> out.append("- Target: ").append(t).append('\n'));
    return out.toString();
  }

  static String line(Row r) {
    PhaseFigures f = r.figures();
    return String.format(
        Locale.ROOT,
        "| %s | %s | %s | %.1f | %.1f | %s | %s | %d | %s |",
        r.load(),
        r.phase(),
        r.event(),
        f.elapsed().toMillis() / 1000.0,
        f.both().rps(),
        latency(f.checkOut()),
        latency(f.checkIn()),
        f.errors(),
        f.errorKindsText());
  }

  /**
   * @return {@code p50 / p99}, or a dash when there was no such operation
   */
  private static String latency(OperationSummary s) {
    return s.count() == 0 ? "–" : String.format(Locale.ROOT, "%.1f / %.1f", s.p50(), s.p99());
  }

  /**
   * The instance-kill target: each virtual user has at most one operation in flight, so at most
   * {@code users} can fail for being on the killed instance at the kill; once it is back, none.
   *
   * @param whileDown the phases from the kill until the instance listens again
   * @param back the phase after that
   */
  static boolean killMet(int users, List<PhaseFigures> whileDown, PhaseFigures back) {
    long failed = whileDown.stream().mapToLong(PhaseFigures::errors).sum();
    return failed <= users && back.errors() == 0;
  }

  /**
   * @return the flooded tenant's check-out p99 during the flood ÷ before it
   */
  static double p99Ratio(PhaseFigures baseline, PhaseFigures flood) {
    return flood.checkOut().p99() / baseline.checkOut().p99();
  }
}
