package io.okapigw.perf.load;

import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Prints the tables of {@code checkout-checkin --compare}, one per user count. */
final class ComparisonReport {

  private static final Logger out = LoggerFactory.getLogger("io.okapigw.cli");

  private ComparisonReport() {}

  static void print(LoadOptions options, List<RunReport> reports) {
    for (int users : options.users()) {
      List<RunReport> same = reports.stream().filter(r -> r.plan().users() == users).toList();
      StringBuilder text =
          new StringBuilder()
              .append(String.format("%n### %d users%n%n%s%n%n", users, setup(options)));
      text.append(ReportTable.compared(same)).append("\n\n");
      same.forEach(
          r ->
              text.append("- ")
                  .append(r.mode())
                  .append(": ")
                  .append(ReportTable.authNote(r))
                  .append("\n"));
      text.append(ReportTable.errorLines(same));
      out.info(text.toString());
    }
  }

  private static String setup(LoadOptions o) {
    return String.format(
        "%d s measured per mode in %d interleaved slices of %.1f s (auth off,"
            + " cache off, cache on, auth off, ...), after a %d s warm-up of each; three demo stacks"
            + " (%d patrons, %d items) and the driver in one JVM, warmed up first for %d s; %s",
        o.duration().toSeconds(),
        o.slices(),
        o.duration().toMillis() / 1000.0 / o.slices(),
        o.warmup().toSeconds(),
        o.patrons(),
        o.items(),
        o.jvmWarmup().toSeconds(),
        o.userLookup()
            ? "the authtoken module with --user-lookup gateway (each decision looks"
                + " the user and its permissions up in mod-users and mod-permissions through the"
                + " gateway, as FOLIO's mod-authtoken)"
            : "the authtoken module deciding from its own store");
  }
}
