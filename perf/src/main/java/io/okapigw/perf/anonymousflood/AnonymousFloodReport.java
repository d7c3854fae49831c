package io.okapigw.perf.anonymousflood;

import io.okapigw.perf.kit.latency.LatencyStats;
import io.okapigw.perf.kit.load.HttpLoadResult;
import java.util.Locale;

/**
 * The {@code anonymous-flood} phases as a markdown table, and the users' p99 during the flood
 * against alone.
 *
 * @param options what was run
 * @param alone the users' requests without the flood, rounds pooled
 * @param users the users' requests while the flood ran, rounds pooled
 * @param flood the flood's requests (every one refused), rounds pooled
 */
public record AnonymousFloodReport(
    AnonymousFloodOptions options,
    HttpLoadResult alone,
    HttpLoadResult users,
    HttpLoadResult flood) {

  /**
   * @return the table: one row per phase of the users, one for the flood
   */
  public String table() {
    return "| run | clients | requests | mean ms | p50 ms | p99 ms | max ms | req/s | not 2xx |\n"
        + "|---|---:|---:|---:|---:|---:|---:|---:|---|\n"
        + row("users alone", options.clients(), alone)
        + row("users during the flood", options.clients(), users)
        + row("tokenless flood", options.floodClients(), flood);
  }

  /**
   * @return the users' p99 during the flood against alone, and whether any of their requests was
   *     refused
   */
  public String summary() {
    double ratio = users.duration().p99() / alone.duration().p99();
    return String.format(
        Locale.ROOT,
        "users' p99 during the flood / alone: %.2f (%.2f ms / %.2f ms); users' requests not 2xx:"
            + " %d of %d; flood requests: %d, not 2xx: %d (first: %s)",
        ratio,
        users.duration().p99(),
        alone.duration().p99(),
        alone.errors() + users.errors(),
        alone.completed() + users.completed(),
        flood.completed(),
        flood.errors(),
        flood.firstError());
  }

  private static String row(String run, int clients, HttpLoadResult r) {
    LatencyStats d = r.duration();
    return String.format(
        Locale.ROOT,
        "| %s | %d | %d%s | %.2f | %.2f | %.2f | %.2f | %.0f | %d%s |%n",
        run,
        clients,
        r.completed(),
        r.cut() ? " (cut)" : "",
        d.mean(),
        d.p50(),
        d.p99(),
        d.max(),
        r.rps(),
        r.errors(),
        r.firstError() == null ? "" : " (" + r.firstError() + ")");
  }
}
