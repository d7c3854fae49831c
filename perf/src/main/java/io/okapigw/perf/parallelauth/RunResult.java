package io.okapigw.perf.parallelauth;

import io.okapigw.perf.kit.load.HttpLoadResult;
import io.okapigw.perf.kit.probe.GatewayProbe.CacheCounters;
import java.util.List;
import java.util.Objects;

/**
 * One measured run of {@code parallel-auth}.
 *
 * @param clients concurrent clients
 * @param route what was called
 * @param load the measurements (latency = time to the last byte)
 * @param cache the gateway's auth cache counters over the run, or {@code null} without gateway
 */
public record RunResult(int clients, Route route, HttpLoadResult load, CacheCounters cache) {

  /**
   * @return rounds of one client count and route as one result (counts added, samples pooled)
   */
  static RunResult combine(List<RunResult> rounds) {
    RunResult first = rounds.get(0);
    CacheCounters cache =
        rounds.stream()
            .map(RunResult::cache)
            .filter(Objects::nonNull)
            .reduce(CacheCounters::plus)
            .orElse(null);
    return new RunResult(
        first.clients(),
        first.route(),
        HttpLoadResult.combine(rounds.stream().map(RunResult::load).toList()),
        cache);
  }

  /**
   * @return whether each completed request was exactly one cache miss and one auth call
   */
  public boolean everyRequestMissed() {
    return cache != null
        && cache.misses() == load.completed()
        && cache.authCalls() == load.completed();
  }
}
