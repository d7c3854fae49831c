package io.okapigw.perf.waterfall;

import io.okapigw.demo.TraceSpan;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The waterfall of one check-out's trace as a self-contained SVG: one row per request the gateway
 * served (the client's and each module-to-module call), in the order they started, indented by
 * depth; in each row the gateway's hop (grey), its auth call (orange, only on a cache miss) and its
 * handler call (blue), on one time axis; a badge tells the auth outcome (hit green, miss red,
 * coalesced amber).
 */
final class WaterfallSvg {

  private static final int LABEL = 330;
  private static final int CHART = 760;
  private static final int ROW = 16;
  private static final int TOP = 58;
  private static final int WIDTH = LABEL + CHART + 20;

  private WaterfallSvg() {}

  /** The numbers of one trace that the picture's title and the benchmarks table show. */
  record Summary(int hops, long authCalls, double totalMs, double authMs, long hits, long misses) {

    /**
     * @return the auth calls' summed time as a share of the check-out's
     */
    double authShare() {
      return totalMs == 0 ? 0 : authMs / totalMs;
    }
  }

  static Summary summary(List<TraceSpan> spans) {
    List<TraceSpan> servers = spans.stream().filter(TraceSpan::isServer).toList();
    TraceSpan root = root(spans);
    long authMicros =
        spans.stream()
            .filter(s -> "auth".equals(s.callKind()))
            .mapToLong(TraceSpan::durationMicros)
            .sum();
    return new Summary(
        servers.size(),
        spans.stream().filter(s -> "auth".equals(s.callKind())).count(),
        root.durationMicros() / 1000.0,
        authMicros / 1000.0,
        servers.stream().filter(s -> "hit".equals(s.authOutcome())).count(),
        servers.stream().filter(s -> "miss".equals(s.authOutcome())).count());
  }

  /** The gateway's first hop: the server span whose parent is not in the trace. */
  static TraceSpan root(List<TraceSpan> spans) {
    Map<String, TraceSpan> byId = byId(spans);
    return spans.stream()
        .filter(s -> s.isServer() && !byId.containsKey(s.parentId()))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no gateway hop in the trace"));
  }

  static String render(String title, List<TraceSpan> spans) {
    Map<String, TraceSpan> byId = byId(spans);
    TraceSpan root = root(spans);
    long t0 = root.startMicros();
    double scale = CHART / (double) Math.max(1, root.durationMicros());
    List<TraceSpan> hops =
        spans.stream()
            .filter(TraceSpan::isServer)
            .sorted(Comparator.comparingLong(TraceSpan::startMicros))
            .toList();
    Summary sum = summary(spans);
    StringBuilder svg = new StringBuilder();
    int height = TOP + hops.size() * ROW + 40;
    svg.append(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">\n"
                .formatted(WIDTH, height))
        .append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    text(svg, 10, 18, 14, "bold", title);
    text(
        svg,
        10,
        36,
        11,
        "normal",
        String.format(
            Locale.ROOT,
            "%d gateway hops, %.1f ms; %d auth calls, %.1f ms summed (%.0f%% of the check-out);"
                + " cache hits %d, misses %d",
            sum.hops(),
            sum.totalMs(),
            sum.authCalls(),
            sum.authMs(),
            100 * sum.authShare(),
            sum.hits(),
            sum.misses()));
    legend(svg);
    axis(svg, root.durationMicros(), height);
    List<TraceSpan> calls = spans.stream().filter(s -> !s.isServer()).toList();
    for (int i = 0; i < hops.size(); i++) {
      TraceSpan hop = hops.get(i);
      int y = TOP + i * ROW;
      row(svg, hop, depth(hop, byId), y);
      bar(svg, hop, t0, scale, y + 3, 10, "#d0d0d0");
      for (TraceSpan call : calls) {
        if (hop.id().equals(call.parentId())) {
          String color = "auth".equals(call.callKind()) ? "#f08c00" : "#1c7ed6";
          bar(svg, call, t0, scale, y + 5, 6, color);
        }
      }
    }
    return svg.append("</svg>\n").toString();
  }

  private static void row(StringBuilder svg, TraceSpan hop, int depth, int y) {
    String outcome = hop.authOutcome() == null ? "none" : hop.authOutcome();
    String color =
        switch (outcome) {
          case "hit" -> "#2f9e44";
          case "miss" -> "#e03131";
          case "coalesced", "stale" -> "#f59f00";
          default -> "#868e96";
        };
    svg.append(
        "<circle cx=\"14\" cy=\"%d\" r=\"4\" fill=\"%s\"><title>auth %s</title></circle>\n"
            .formatted(y + 8, color, outcome));
    String route = hop.name().length() > 48 ? hop.name().substring(0, 47) + "…" : hop.name();
    text(svg, 24 + 8 * Math.min(depth, 6), y + 12, 10, "normal", route);
  }

  private static void bar(
      StringBuilder svg, TraceSpan span, long t0, double scale, int y, int h, String color) {
    double x = LABEL + (span.startMicros() - t0) * scale;
    double w = Math.max(1, span.durationMicros() * scale);
    svg.append(
        String.format(
            Locale.ROOT,
            "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>%s %.2f ms</title></rect>%n",
            x,
            y,
            w,
            h,
            color,
            escape(span.name()),
            span.durationMicros() / 1000.0));
  }

  private static void axis(StringBuilder svg, long totalMicros, int height) {
    double totalMs = totalMicros / 1000.0;
    double step = niceStep(totalMs / 8);
    for (double ms = 0; ms <= totalMs + 1e-9; ms += step) {
      double x = LABEL + ms * 1000 * CHART / Math.max(1, totalMicros);
      svg.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#eeeeee\"/>%n",
              x,
              TOP - 4,
              x,
              height - 30));
      text(svg, (int) x - 8, height - 16, 10, "normal", fmt(ms) + " ms");
    }
  }

  private static void legend(StringBuilder svg) {
    int x = LABEL;
    for (String[] item :
        List.of(
            new String[] {"#d0d0d0", "gateway hop"},
            new String[] {"#1c7ed6", "handler call"},
            new String[] {"#f08c00", "auth call"},
            new String[] {"#2f9e44", "cache hit"},
            new String[] {"#e03131", "cache miss"})) {
      svg.append(
          "<rect x=\"%d\" y=\"42\" width=\"10\" height=\"8\" fill=\"%s\"/>\n"
              .formatted(x, item[0]));
      text(svg, x + 14, 50, 10, "normal", item[1]);
      x += 110;
    }
  }

  private static void text(StringBuilder svg, int x, int y, int size, String weight, String s) {
    svg.append(
        "<text x=\"%d\" y=\"%d\" font-size=\"%d\" font-weight=\"%s\">%s</text>\n"
            .formatted(x, y, size, weight, escape(s)));
  }

  private static int depth(TraceSpan hop, Map<String, TraceSpan> byId) {
    int depth = 0;
    TraceSpan s = byId.get(hop.parentId());
    while (s != null) {
      if (s.isServer()) {
        depth++;
      }
      s = byId.get(s.parentId());
    }
    return depth;
  }

  private static double niceStep(double raw) {
    double magnitude = Math.pow(10, Math.floor(Math.log10(Math.max(raw, 1e-3))));
    for (double m : new double[] {1, 2, 5, 10}) {
      if (raw <= m * magnitude) {
        return m * magnitude;
      }
    }
    return 10 * magnitude;
  }

  private static String fmt(double ms) {
    return ms == Math.rint(ms) ? Long.toString((long) ms) : String.format(Locale.ROOT, "%.1f", ms);
  }

  private static Map<String, TraceSpan> byId(List<TraceSpan> spans) {
    return spans.stream()
        .collect(Collectors.toMap(TraceSpan::id, Function.identity(), (a, b) -> a));
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
