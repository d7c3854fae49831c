package io.okapigw.perf.fullfake;

import io.okapigw.config.Sizes;
import io.okapigw.perf.kit.latency.LatencyStats;
import io.okapigw.perf.kit.load.HttpLoadResult;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * The full-fake matrix as a markdown table, and the targets checked against it: gateway >=
 * 0.5x direct requests/s for bodies up to 16 KB, >= 0.8x direct throughput for 1 MB and more, heap
 * flat for 256 MB bodies (no errors, and the largest heap sample of those cells at most {@value
 * #HEAP_FLAT_SLACK_MB} MB above that of the 1 MB cells).
 *
 * @param options what was run
 * @param cells the cells, in run order
 * @param authCallsDuringCells auth module calls the gateway made while the cells ran (0: every
 *     request was a cache hit)
 */
public record FullFakeReport(
    FullFakeOptions options, List<CellResult> cells, long authCallsDuringCells) {

  static final long HEAP_FLAT_SLACK_MB = 32;
  private static final long SMALL = 16 * Sizes.KB;
  private static final long LARGE = Sizes.MB;
  private static final long HUGE = 256 * Sizes.MB;

  /**
   * @return the table, one row per cell
   */
  public String table() {
    StringBuilder out =
        new StringBuilder()
            .append(
                "| clients | size | requests | req/s direct | req/s gateway | gw/direct req/s "
                    + "| MB/s direct | MB/s gateway | gw/direct MB/s | TTFB ms direct mean/p99 "
                    + "| TTFB ms gateway mean/p99 | duration ms direct mean/p99 "
                    + "| duration ms gateway mean/p99 | errors direct/gateway "
                    + "| gateway heap MB before/max/after | gateway CPU ms/req | gateway cores busy |\n")
            .append(
                "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|---|---|---"
                    + "|---:|---:|\n");
    for (CellResult c : cells) {
      out.append(
          String.format(
              Locale.ROOT,
              "| %d | %s | %s | %.0f | %.0f | %.2f | %.1f | %.1f | %.2f | %s | %s | %s | %s "
                  + "| %d/%d | %s | %s | %s |%n",
              c.clients(),
              Sizes.format(c.size()),
              requests(c),
              c.direct().rps(),
              c.gateway().rps(),
              c.rpsRatio(),
              c.direct().mbPerSecond(),
              c.gateway().mbPerSecond(),
              c.throughputRatio(),
              meanP99(c.direct().ttfb()),
              meanP99(c.gateway().ttfb()),
              meanP99(c.direct().duration()),
              meanP99(c.gateway().duration()),
              c.direct().errors(),
              c.gateway().errors(),
              heap(c.heap()),
              known(c.gatewayCpuMillisPerRequest(), "%.3f"),
              known(c.gatewayCores(), "%.2f")));
    }
    return out.toString();
  }

  /**
   * @return one line per target: met or missed, with the figures
   */
  public String targets() {
    return String.join(
        "\n",
        ratioTarget(
            "gateway >= 0.5x direct req/s, bodies <= 16KB", c -> c.size() <= SMALL, 0.5, false),
        ratioTarget(
            "gateway >= 0.8x direct MB/s, bodies >= 1MB", c -> c.size() >= LARGE, 0.8, true),
        heapTarget(),
        "auth calls during the measured cells: "
            + authCallsDuringCells
            + (authCallsDuringCells == 0 ? " (every gateway request was a cache hit)" : ""),
        "errors: "
            + cells.stream().mapToInt(CellResult::errors).sum()
            + firstError().map(e -> " (first: " + e + ")").orElse(""));
  }

  private String ratioTarget(
      String name, Predicate<CellResult> which, double min, boolean throughput) {
    List<CellResult> chosen = cells.stream().filter(which).toList();
    if (chosen.isEmpty()) {
      return name + ": no such cells";
    }
    long met = chosen.stream().filter(c -> ratio(c, throughput) >= min).count();
    double worst = chosen.stream().mapToDouble(c -> ratio(c, throughput)).min().orElse(0);
    double mean = chosen.stream().mapToDouble(c -> ratio(c, throughput)).average().orElse(0);
    return String.format(
        Locale.ROOT,
        "%s: %s (met in %d of %d cells; worst %.2f, mean %.2f)",
        name,
        met == chosen.size() ? "MET" : "MISSED",
        met,
        chosen.size(),
        worst,
        mean);
  }

  private String heapTarget() {
    long huge = maxHeap(c -> c.size() >= HUGE);
    long large = maxHeap(c -> c.size() >= LARGE && c.size() < 2 * LARGE);
    int errors = cells.stream().filter(c -> c.size() >= HUGE).mapToInt(CellResult::errors).sum();
    if (huge < 0 || large < 0) {
      return "heap flat for 256MB: needs 1MB and 256MB cells with heap samples";
    }
    boolean flat = errors == 0 && huge <= large + HEAP_FLAT_SLACK_MB * Sizes.MB;
    return String.format(
        Locale.ROOT,
        "heap flat for 256MB bodies (gateway -Xmx%s): %s (largest "
            + "heap sample %.0f MB in 256MB cells vs %.0f MB in 1MB cells, %d errors)",
        options.launch().gatewayHeap(),
        flat ? "MET" : "MISSED",
        mb(huge),
        mb(large),
        errors);
  }

  private long maxHeap(Predicate<CellResult> which) {
    return cells.stream()
        .filter(which)
        .filter(c -> c.heap() != null)
        .mapToLong(c -> c.heap().max())
        .max()
        .orElse(-1);
  }

  private Optional<String> firstError() {
    return cells.stream()
        .flatMap(c -> Stream.of(c.direct(), c.gateway()))
        .map(HttpLoadResult::firstError)
        .filter(Objects::nonNull)
        .findFirst();
  }

  private static double ratio(CellResult c, boolean throughput) {
    return throughput ? c.throughputRatio() : c.rpsRatio();
  }

  private static String requests(CellResult c) {
    boolean cut = c.direct().cut() || c.gateway().cut();
    return cut
        ? c.requests() + " (cut: " + c.direct().completed() + "/" + c.gateway().completed() + ")"
        : Integer.toString(c.requests());
  }

  private static String meanP99(LatencyStats s) {
    return String.format(Locale.ROOT, "%.2f / %.2f", s.mean(), s.p99());
  }

  private static String heap(CellResult.Heap h) {
    return h == null
        ? "-"
        : String.format(
            Locale.ROOT, "%.0f / %.0f / %.0f", mb(h.before()), mb(h.max()), mb(h.after()));
  }

  private static String known(double value, String format) {
    return value < 0 ? "-" : String.format(Locale.ROOT, format, value);
  }

  private static double mb(long bytes) {
    return bytes < 0 ? -1 : bytes / (double) Sizes.MB;
  }
}
