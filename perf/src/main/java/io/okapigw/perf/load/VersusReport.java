package io.okapigw.perf.load;

import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Prints the table of {@code checkout-checkin --vs} for one user count. */
final class VersusReport {

  private static final Logger out = LoggerFactory.getLogger("io.okapigw.cli");

  private VersusReport() {}

  /**
   * @param reports the {@link Versus#GATEWAY} run, then the {@link Versus#VS} run, then the {@link
   *     Versus#BASELINE} run if there is one
   */
  static void print(LoadOptions options, List<RunReport> reports) {
    out.info(text(options, reports));
  }

  static String text(LoadOptions o, List<RunReport> reports) {
    RunReport gateway = reports.get(0);
    RunReport vs = reports.get(1);
    StringBuilder text =
        new StringBuilder()
            .append(
                String.format(
                    Locale.ROOT,
                    "%n### %d users: %s vs %s%n%n%s = %s, %s = %s; %d s measured per gateway in %d"
                        + " interleaved slices of %.1f s (%s, %s, %s, ...), after a %d s warm-up of each;"
                        + " tenant %s%n%n",
                    gateway.plan().users(),
                    urls(o.gateways()),
                    urls(o.vs()),
                    Versus.GATEWAY,
                    urls(o.gateways()),
                    Versus.VS,
                    urls(o.vs()),
                    o.duration().toSeconds(),
                    o.slices(),
                    o.duration().toMillis() / 1000.0 / o.slices(),
                    Versus.GATEWAY,
                    Versus.VS,
                    Versus.GATEWAY,
                    o.warmup().toSeconds(),
                    o.tenant()));
    text.append(ReportTable.compared(reports, Versus.VS))
        .append("\n\n")
        .append(summary(gateway, vs, Versus.GATEWAY, Versus.VS))
        .append("\n\n");
    if (reports.size() > 2) {
      RunReport baseline = reports.get(2);
      text.append(summary(baseline, vs, Versus.BASELINE, Versus.VS))
          .append("\n\n")
          .append(summary(gateway, baseline, Versus.GATEWAY, Versus.BASELINE))
          .append("\n\n");
    }
    for (RunReport r : reports) {
      text.append("- ")
          .append(r.mode())
          .append(": ")
          .append(ReportTable.authNote(r))
          .append("; ")
          .append(ReportTable.cpuNote(r))
          .append("\n");
    }
    for (RunReport r : reports) {
      text.append("- errors (").append(r.mode()).append("): ").append(r.errors()).append("\n");
      r.firstErrors().forEach(e -> text.append("  - ").append(e).append("\n"));
    }
    return text.toString();
  }

  /**
   * @return one line: the gateway's throughput, mean latencies and CPU per operation as multiples
   *     of the other's
   */
  static String summary(RunReport gateway, RunReport vs, String gatewayName, String vsName) {
    return String.format(
        Locale.ROOT,
        "%s ÷ %s: %s the check-outs + check-ins per second; mean"
            + " latency %s (check-out %s, check-in %s); gateway CPU per operation %s (%s ms ÷ %s"
            + " ms)",
        gatewayName,
        vsName,
        times(gateway.both().rps(), vs.both().rps()),
        times(gateway.both().mean(), vs.both().mean()),
        times(gateway.checkOut().mean(), vs.checkOut().mean()),
        times(gateway.checkIn().mean(), vs.checkIn().mean()),
        times(gateway.gatewayCpuMsPerOperation(), vs.gatewayCpuMsPerOperation()),
        millis(gateway.gatewayCpuMsPerOperation()),
        millis(vs.gatewayCpuMsPerOperation()));
  }

  private static String times(double value, double base) {
    return base == 0 || Double.isNaN(base) || Double.isNaN(value)
        ? "n/a"
        : String.format(Locale.ROOT, "%.2fx", value / base);
  }

  private static String millis(double ms) {
    return Double.isNaN(ms) ? "n/a" : String.format(Locale.ROOT, "%.2f", ms);
  }

  private static String urls(List<URI> urls) {
    return urls.stream().map(URI::toString).collect(Collectors.joining(","));
  }
}
