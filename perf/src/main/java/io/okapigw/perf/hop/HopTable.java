package io.okapigw.perf.hop;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * The comparison's markdown: per body size, one line per {@link Via} with the median over the
 * rounds, each round's value in parentheses where it matters, and ratios to nginx taken round by
 * round (a proxy and nginx measured minutes apart on this shared machine are not compared); then
 * the targets, counted in rounds.
 */
final class HopTable {

  /** Bodies below this are judged per request, larger ones per MB. */
  static final long SMALL_BELOW = 4096;

  private static final String HEADER =
      "| via | req/s (rounds) | ÷ nginx | MB/s | p50 / p99 ms | errors | proxy CPU µs/req (rounds)"
          + " | ÷ nginx | kernel % | proxy CPU ms/MB | ÷ nginx | module CPU µs/req | heap / RSS MB |\n"
          + "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";

  private HopTable() {}

  /**
   * @param size body bytes
   * @param measured every run of that size, any order
   * @return the table of that size
   */
  static String table(long size, List<Measurement> measured) {
    StringBuilder out = new StringBuilder(HEADER);
    Map<Via, List<Measurement>> byVia =
        measured.stream().collect(Collectors.groupingBy(Measurement::via));
    List<Measurement> nginx = byVia.getOrDefault(Via.NGINX, List.of());
    for (Via via : Via.values()) {
      List<Measurement> runs = byVia.get(via);
      if (runs != null) {
        out.append(line(via, runs, nginx)).append('\n');
      }
    }
    return out.toString();
  }

  private static String line(Via via, List<Measurement> runs, List<Measurement> nginx) {
    boolean compared = via.proxied() && via != Via.NGINX && !nginx.isEmpty();
    return String.join(
        " | ",
        "| " + via.label(),
        withRounds(runs, m -> m.wrk().requestsPerSecond(), "%.0f"),
        compared ? ratio(runs, nginx, m -> m.wrk().requestsPerSecond()) : "",
        format("%.1f", median(runs, Measurement::megabytesPerSecond)),
        format("%.2f", median(runs, m -> m.wrk().p50Millis()))
            + " / "
            + format("%.2f", median(runs, m -> m.wrk().p99Millis())),
        Long.toString(runs.stream().mapToLong(m -> m.wrk().errors()).sum()),
        via.proxied() ? withRounds(runs, Measurement::proxyMicrosPerRequest, "%.1f") : "",
        compared ? ratio(runs, nginx, Measurement::proxyMicrosPerRequest) : "",
        via.proxied() ? format("%.0f", median(runs, Measurement::proxySystemPercent)) : "",
        via.proxied() ? format("%.2f", median(runs, Measurement::proxyMillisPerMb)) : "",
        compared ? ratio(runs, nginx, Measurement::proxyMillisPerMb) : "",
        format("%.1f", median(runs, Measurement::moduleMicrosPerRequest)),
        memory(runs) + " |");
  }

  /**
   * @return the median, then every round's value: {@code 35120 (34900 35120 36010)}
   */
  static String withRounds(List<Measurement> runs, ToDoubleFunction<Measurement> f, String fmt) {
    double median = median(runs, f);
    if (Double.isNaN(median)) {
      return "n/a";
    }
    List<String> each = byRound(runs).stream().map(m -> format(fmt, f.applyAsDouble(m))).toList();
    return format(fmt, median) + (each.size() > 1 ? " (" + String.join(" ", each) + ")" : "");
  }

  /**
   * @return the median of the round-by-round ratios to nginx, then each round's ratio
   */
  static String ratio(
      List<Measurement> runs, List<Measurement> nginx, ToDoubleFunction<Measurement> f) {
    List<Double> ratios = ratios(runs, nginx, f);
    if (ratios.isEmpty()) {
      return "n/a";
    }
    List<String> each = ratios.stream().map(r -> format("%.2f", r)).toList();
    return format("%.2f", median(ratios))
        + (each.size() > 1 ? " (" + String.join(" ", each) + ")" : "");
  }

  /**
   * @return for each round both measured, this run's figure divided by nginx's
   */
  static List<Double> ratios(
      List<Measurement> runs, List<Measurement> nginx, ToDoubleFunction<Measurement> f) {
    List<Double> ratios = new ArrayList<>();
    for (Measurement m : byRound(runs)) {
      Optional<Measurement> same = nginx.stream().filter(n -> n.round() == m.round()).findFirst();
      if (same.isPresent()) {
        double r = f.applyAsDouble(m) / f.applyAsDouble(same.get());
        if (!Double.isNaN(r) && !Double.isInfinite(r)) {
          ratios.add(r);
        }
      }
    }
    return ratios;
  }

  /**
   * @return whether the targets were met, counted in rounds
   */
  static String targets(List<Measurement> all) {
    StringBuilder out = new StringBuilder();
    Map<Long, List<Measurement>> bySize =
        all.stream().collect(Collectors.groupingBy(Measurement::size));
    bySize.keySet().stream()
        .sorted()
        .forEach(
            size -> {
              List<Measurement> runs = bySize.get(size);
              List<Measurement> ours = of(runs, Via.OURS);
              List<Measurement> nginx = of(runs, Via.NGINX);
              if (ours.isEmpty() || nginx.isEmpty()) {
                return;
              }
              out.append("- ").append(SizeArgs.format(size)).append(": ");
              if (size < SMALL_BELOW) {
                out.append(
                        count(
                            "CPU per request <= nginx's",
                            ratios(ours, nginx, Measurement::proxyMicrosPerRequest),
                            r -> r <= 1))
                    .append("; ")
                    .append(
                        count(
                            "req/s >= nginx's",
                            ratios(ours, nginx, m -> m.wrk().requestsPerSecond()),
                            r -> r >= 1));
              } else {
                out.append(
                    count(
                        "CPU per MB <= nginx's",
                        ratios(ours, nginx, Measurement::proxyMillisPerMb),
                        r -> r <= 1));
              }
              List<Measurement> auth = of(runs, Via.OURS_AUTH);
              if (!auth.isEmpty()) {
                List<Double> hit = new ArrayList<>();
                for (Measurement a : auth) {
                  ours.stream()
                      .filter(o -> o.round() == a.round())
                      .findFirst()
                      .ifPresent(
                          o -> hit.add(a.proxyMicrosPerRequest() / o.proxyMicrosPerRequest()));
                }
                out.append("; cache hit CPU per request ÷ no auth: median ")
                    .append(format("%.2f", median(hit)));
              }
              out.append('\n');
            });
    return out.toString();
  }

  private static String count(
      String what, List<Double> ratios, java.util.function.DoublePredicate met) {
    long n = ratios.stream().filter(met::test).count();
    return what + " in " + n + " of " + ratios.size() + " rounds";
  }

  private static List<Measurement> of(List<Measurement> runs, Via via) {
    return runs.stream().filter(m -> m.via() == via).toList();
  }

  private static String memory(List<Measurement> runs) {
    long heap = runs.stream().mapToLong(Measurement::heapBytes).max().orElse(-1);
    long rss = runs.stream().mapToLong(Measurement::rssBytes).max().orElse(-1);
    if (heap < 0 && rss < 0) {
      return "";
    }
    return (heap < 0 ? "n/a" : format("%.0f", heap / Measurement.MB))
        + " / "
        + (rss < 0 ? "n/a" : format("%.0f", rss / Measurement.MB));
  }

  private static List<Measurement> byRound(List<Measurement> runs) {
    return runs.stream().sorted((a, b) -> Integer.compare(a.round(), b.round())).toList();
  }

  static double median(List<Measurement> runs, ToDoubleFunction<Measurement> f) {
    return median(runs.stream().map(m -> f.applyAsDouble(m)).toList());
  }

  /**
   * @return the median of the numbers that are not NaN, or NaN if there are none
   */
  static double median(List<Double> values) {
    double[] v =
        values.stream().mapToDouble(Double::doubleValue).filter(d -> !Double.isNaN(d)).toArray();
    if (v.length == 0) {
      return Double.NaN;
    }
    Arrays.sort(v);
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }

  private static String format(String fmt, double value) {
    return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, fmt, value);
  }
}
