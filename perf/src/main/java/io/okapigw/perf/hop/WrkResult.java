package io.okapigw.perf.hop;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one wrk run measured, read from its output ({@code wrk --latency}).
 *
 * @param requests requests completed
 * @param seconds the run's length as wrk reports it
 * @param requestsPerSecond wrk's Requests/sec
 * @param p50Millis median latency
 * @param p99Millis 99th percentile latency
 * @param errors non-2xx/3xx answers plus socket errors (connect, read, write, timeout)
 */
record WrkResult(
    long requests,
    double seconds,
    double requestsPerSecond,
    double p50Millis,
    double p99Millis,
    long errors) {

  private static final Pattern TOTAL = Pattern.compile("(\\d+) requests in ([0-9.]+)(us|ms|s|m|h)");
  private static final Pattern RATE = Pattern.compile("Requests/sec:\\s+([0-9.]+)");
  private static final Pattern P50 = Pattern.compile("\\s50%\\s+([0-9.]+)(us|ms|s|m|h)");
  private static final Pattern P99 = Pattern.compile("\\s99%\\s+([0-9.]+)(us|ms|s|m|h)");
  private static final Pattern NON_2XX = Pattern.compile("Non-2xx or 3xx responses: (\\d+)");
  private static final Pattern SOCKET =
      Pattern.compile("Socket errors: connect (\\d+), read (\\d+), write (\\d+), timeout (\\d+)");

  /**
   * @param output everything wrk printed
   * @throws IllegalArgumentException quoting the output if it has no totals or latency distribution
   *     (run wrk with {@code --latency})
   */
  static WrkResult parse(String output) {
    Matcher total = find(TOTAL, output);
    Matcher rate = find(RATE, output);
    Matcher p50 = find(P50, output);
    Matcher p99 = find(P99, output);
    long errors = 0;
    Matcher non2xx = NON_2XX.matcher(output);
    if (non2xx.find()) {
      errors += Long.parseLong(non2xx.group(1));
    }
    Matcher socket = SOCKET.matcher(output);
    if (socket.find()) {
      for (int g = 1; g <= 4; g++) {
        errors += Long.parseLong(socket.group(g));
      }
    }
    return new WrkResult(
        Long.parseLong(total.group(1)),
        millis(total.group(2), total.group(3)) / 1000,
        Double.parseDouble(rate.group(1)),
        millis(p50.group(1), p50.group(2)),
        millis(p99.group(1), p99.group(2)),
        errors);
  }

  private static Matcher find(Pattern pattern, String output) {
    Matcher m = pattern.matcher(output);
    if (!m.find()) {
      throw new IllegalArgumentException(
          "wrk's output has no '" + pattern.pattern() + "' (run with --latency):\n" + output);
    }
    return m;
  }

  static double millis(String value, String unit) {
    double v = Double.parseDouble(value);
    return switch (unit) {
      case "us" -> v / 1000;
      case "ms" -> v;
      case "s" -> v * 1000;
      case "m" -> v * 60_000;
      default -> v * 3_600_000;
    };
  }
}
