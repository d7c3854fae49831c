package io.okapigw.perf.load;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * The figures of one phase a {@link LoadDriver} ran on its own ({@link LoadDriver#phase}): a phase
 * of a fault scenario, before, during or after the fault.
 *
 * @param elapsed from its start until the last user stopped
 * @param checkOut check-outs (attempts, timed)
 * @param checkIn check-ins
 * @param both both together
 * @param errorKinds errors by kind: the status of a non-2xx answer ({@code 502}), {@code no
 *     answer}, or {@code lost in flight} (the connection broke after the request was sent: not
 *     timed, so not in the summaries' counts); sorted
 */
public record PhaseFigures(
    Duration elapsed,
    OperationSummary checkOut,
    OperationSummary checkIn,
    OperationSummary both,
    Map<String, Long> errorKinds) {

  public PhaseFigures {
    errorKinds = Map.copyOf(new TreeMap<>(errorKinds));
  }

  static PhaseFigures of(Duration elapsed, PhaseStats stats) {
    double seconds = elapsed.toNanos() / 1e9;
    OperationStats both = stats.both();
    return new PhaseFigures(
        elapsed,
        stats.checkOut().summary(seconds),
        stats.checkIn().summary(seconds),
        both.summary(seconds),
        both.errorKinds());
  }

  /**
   * @return every failed operation: errors and losses
   */
  public long errors() {
    return errorKinds.values().stream().mapToLong(Long::longValue).sum();
  }

  /**
   * @return the error kinds sorted, e.g. {@code 502 ×12, lost in flight ×2}; empty without errors
   */
  public String errorKindsText() {
    StringBuilder text = new StringBuilder();
    new TreeMap<>(errorKinds)
        .forEach(
            (kind, n) ->
                text.append(text.isEmpty() ? "" : ", ").append(kind).append(" ×").append(n));
    return text.toString();
  }
}
