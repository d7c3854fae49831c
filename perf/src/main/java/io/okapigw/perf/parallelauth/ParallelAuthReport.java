package io.okapigw.perf.parallelauth;

import io.okapigw.perf.kit.latency.LatencyStats;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The {@code parallel-auth} runs as a markdown table, and the target checked per client
 * count: mean latency of parallel auth on misses at most {@value #TARGET_FACTOR} x max(auth alone,
 * handler alone), i.e. clearly below sequential's auth + handler.
 *
 * <p>The handler alone is called directly, so that bound leaves the gateway no time for its own
 * hop. A second reading, printed beside the target and never instead of it, puts what the gateway
 * can reach in the handler's place: {@value #TARGET_FACTOR} x max(auth alone, cache hit through the
 * gateway), the hit being the same request with the auth decision already cached.
 *
 * @param options what was run
 * @param runs the runs, in run order
 */
public record ParallelAuthReport(ParallelAuthOptions options, List<RunResult> runs) {

  static final double TARGET_FACTOR = 1.1;

  /**
   * @return the table, one row per run
   */
  public String table() {
    StringBuilder out =
        new StringBuilder(
            "| clients | run | requests | mean ms | p50 ms "
                + "| p99 ms | req/s | errors | cache misses / auth calls |\n"
                + "|---:|---|---:|---:|---:|---:|---:|---:|---|\n");
    for (RunResult r : runs) {
      LatencyStats d = r.load().duration();
      out.append(
          String.format(
              Locale.ROOT,
              "| %d | %s | %d%s | %.2f | %.2f | %.2f | %.0f | %d | %s |%n",
              r.clients(),
              r.route().label(),
              r.load().completed(),
              r.load().cut() ? " (cut)" : "",
              d.mean(),
              d.p50(),
              d.p99(),
              r.load().rps(),
              r.load().errors(),
              r.cache() == null ? "-" : r.cache().misses() + " / " + r.cache().authCalls()));
    }
    return out.toString();
  }

  /**
   * @return one line per client count, and whether every gateway miss run really missed
   */
  public String targets() {
    StringBuilder out = new StringBuilder();
    for (int clients : options.clients()) {
      out.append(target(clients)).append('\n');
    }
    out.append(
        "read against what the gateway can reach (its own cache hit in place of the "
            + "handler alone):\n");
    for (int clients : options.clients()) {
      out.append(reachableTarget(clients)).append('\n');
    }
    boolean allMissed =
        runs.stream()
            .filter(r -> r.route().uniqueTokens() && r.cache() != null)
            .allMatch(RunResult::everyRequestMissed);
    return out.append(
            "every request of the sequential and parallel runs was one cache miss and "
                + "one auth call: ")
        .append(allMissed ? "yes" : "NO")
        .toString();
  }

  /**
   * @return whether the target is met at every client count
   */
  public boolean targetMet() {
    return options.clients().stream()
        .allMatch(c -> parallelBound(c, Route.HANDLER).map(b -> b[0] <= b[1]).orElse(false));
  }

  /**
   * @return whether parallel is within {@value #TARGET_FACTOR} x max(auth alone, gateway cache hit)
   *     at every client count (the reading against what the gateway can reach)
   */
  public boolean reachableTargetMet() {
    return options.clients().stream()
        .allMatch(c -> parallelBound(c, Route.HIT).map(b -> b[0] <= b[1]).orElse(false));
  }

  private String target(int clients) {
    Optional<double[]> bound = parallelBound(clients, Route.HANDLER);
    if (bound.isEmpty()) {
      return "clients " + clients + ": runs missing";
    }
    double parallel = bound.get()[0];
    double limit = bound.get()[1];
    double sequential = mean(clients, Route.SEQUENTIAL);
    double handler = mean(clients, Route.HANDLER);
    return String.format(
        Locale.ROOT,
        "clients %d: parallel mean %.2f ms vs %.1f x max(auth %.2f,"
            + " handler %.2f) = %.2f ms: %s; sequential %.2f ms (auth + handler = %.2f ms), "
            + "parallel saves %.2f ms (%.0f%%); gateway on a hit %.2f ms (hop %.2f ms)",
        clients,
        parallel,
        TARGET_FACTOR,
        mean(clients, Route.AUTH),
        handler,
        limit,
        parallel <= limit ? "MET" : "MISSED",
        sequential,
        mean(clients, Route.AUTH) + handler,
        sequential - parallel,
        100 * (sequential - parallel) / sequential,
        mean(clients, Route.HIT),
        mean(clients, Route.HIT) - handler);
  }

  private String reachableTarget(int clients) {
    Optional<double[]> bound = parallelBound(clients, Route.HIT);
    if (bound.isEmpty()) {
      return "clients " + clients + ": runs missing";
    }
    double parallel = bound.get()[0];
    double limit = bound.get()[1];
    return String.format(
        Locale.ROOT,
        "clients %d: parallel mean %.2f ms vs %.1f x max(auth %.2f,"
            + " gateway cache hit %.2f) = %.2f ms: %s (%.2f x the hit)",
        clients,
        parallel,
        TARGET_FACTOR,
        mean(clients, Route.AUTH),
        mean(clients, Route.HIT),
        limit,
        parallel <= limit ? "MET" : "MISSED",
        parallel / mean(clients, Route.HIT));
  }

  /**
   * @param base the handler alone (the target) or the gateway's cache hit
   * @return {parallel mean, limit} for {@code clients}, if the runs are there
   */
  private Optional<double[]> parallelBound(int clients, Route base) {
    Optional<RunResult> parallel = find(clients, Route.PARALLEL);
    Optional<RunResult> auth = find(clients, Route.AUTH);
    Optional<RunResult> handler = find(clients, base);
    if (parallel.isEmpty() || auth.isEmpty() || handler.isEmpty()) {
      return Optional.empty();
    }
    double limit =
        TARGET_FACTOR
            * Math.max(auth.get().load().duration().mean(), handler.get().load().duration().mean());
    return Optional.of(new double[] {parallel.get().load().duration().mean(), limit});
  }

  private double mean(int clients, Route route) {
    return find(clients, route).map(r -> r.load().duration().mean()).orElse(Double.NaN);
  }

  private Optional<RunResult> find(int clients, Route route) {
    return runs.stream().filter(r -> r.clients() == clients && r.route() == route).findFirst();
  }
}
