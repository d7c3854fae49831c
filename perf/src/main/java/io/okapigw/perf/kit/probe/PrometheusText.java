package io.okapigw.perf.kit.probe;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads the figures the benchmarks need from a gateway's Prometheus text ({@code /_/metrics}). */
public final class PrometheusText {

  private static final Pattern HEAP_LINE =
      Pattern.compile(
          "^jvm_memory_used_bytes\\{[^}]*area=\"heap\"[^}]*\\}\\s+(\\S+)$", Pattern.MULTILINE);
  private static final Pattern CPU_LINE =
      Pattern.compile("^process_cpu_time_ns_total(?:\\{[^}]*\\})?\\s+(\\S+)$", Pattern.MULTILINE);

  private PrometheusText() {}

  /**
   * @param metrics a Prometheus text exposition ({@code /_/metrics})
   * @return the sum of {@code jvm_memory_used_bytes} with {@code area="heap"}, or -1 if none
   */
  public static long heapUsed(String metrics) {
    Matcher m = HEAP_LINE.matcher(metrics);
    double sum = 0;
    boolean found = false;
    while (m.find()) {
      sum += Double.parseDouble(m.group(1));
      found = true;
    }
    return found ? (long) sum : -1;
  }

  /**
   * @param metrics a Prometheus text exposition ({@code /_/metrics})
   * @return the JVM's CPU time in nanoseconds ({@code process_cpu_time_ns_total}, 10 ms resolution
   *     on Linux), -1 if the text has none
   */
  public static long cpuNanos(String metrics) {
    Matcher m = CPU_LINE.matcher(metrics);
    return m.find() ? (long) Double.parseDouble(m.group(1)) : -1;
  }

  /**
   * @param metrics a Prometheus text exposition ({@code /_/metrics})
   * @param name a metric's name, e.g. {@code okapi_module_stalls_total}
   * @param label a label's name
   * @param value the label's value
   * @return the sum of the metric's samples whose {@code label} is {@code value}; 0 if none
   * @throws NumberFormatException if such a sample's value is not a number
   */
  public static double sum(String metrics, String name, String label, String value) {
    Pattern sample =
        Pattern.compile("^" + Pattern.quote(name) + "\\{([^}]*)\\}\\s+(\\S+)", Pattern.MULTILINE);
    Pattern labelled =
        Pattern.compile("(^|,)\\s*" + Pattern.quote(label) + "=\"" + Pattern.quote(value) + "\"");
    double total = 0;
    Matcher m = sample.matcher(metrics);
    while (m.find()) {
      if (labelled.matcher(m.group(1)).find()) {
        total += Double.parseDouble(m.group(2));
      }
    }
    return total;
  }
}
