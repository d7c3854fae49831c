package io.okapigw.core.timer;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.shareddata.AsyncMap;
import java.time.Instant;
import java.util.Set;

/**
 * Which node makes a timer's run: the first to claim it, in a cluster-wide map (this JVM's when not
 * clustered). A timer's entry holds the instant of its last claimed run and only moves forward
 * (compare-and-set), so a run is made once even when a node's clock is behind the others' or its
 * wake-up late, and no entry ever needs to expire.
 */
final class RunClaims {

  static final String MAP = "okapigw.timers.runs";

  /** Compare-and-set attempts per claim: other nodes claim the same or an earlier run. */
  private static final int MAX_ATTEMPTS = 5;

  private final AsyncMap<String, Long> runs;

  private RunClaims(AsyncMap<String, Long> runs) {
    this.runs = runs;
  }

  static Future<RunClaims> create(Vertx vertx) {
    return vertx.sharedData().<String, Long>getAsyncMap(MAP).map(RunClaims::new);
  }

  /**
   * @param timer the timer's key (tenant and id)
   * @param run the instant of the run
   * @return true if this node makes the run; false if a node claimed it or a later one
   */
  Future<Boolean> claim(String timer, Instant run) {
    return claim(timer, run.toEpochMilli(), MAX_ATTEMPTS);
  }

  /** A lost compare-and-set is tried again while the last claimed run is still earlier. */
  private Future<Boolean> claim(String timer, long at, int attempts) {
    return runs.get(timer)
        .compose(
            last -> {
              if (last != null && last >= at) {
                return Future.succeededFuture(false);
              }
              Future<Boolean> set =
                  last == null
                      ? runs.putIfAbsent(timer, at).map(previous -> previous == null)
                      : runs.replaceIfPresent(timer, last, at);
              return set.compose(
                  won ->
                      won || attempts <= 1
                          ? Future.succeededFuture(won)
                          : claim(timer, at, attempts - 1));
            });
  }

  /**
   * Forgets the timers that are gone and have not run since {@code before}. The age rule keeps the
   * claims of a timer a slow concurrent change may not yet count as live (its runs must stay
   * claimed), and costs nothing: a gone timer's entry is only forgotten later.
   */
  Future<Void> forget(Set<String> live, Instant before) {
    return runs.entries()
        .compose(
            entries ->
                Future.all(
                    entries.entrySet().stream()
                        .filter(
                            e -> !live.contains(e.getKey()) && e.getValue() < before.toEpochMilli())
                        .map(e -> runs.removeIfPresent(e.getKey(), e.getValue()))
                        .toList()))
        .mapEmpty();
  }
}
