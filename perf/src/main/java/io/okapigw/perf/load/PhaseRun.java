package io.okapigw.perf.load;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.LongFunction;

/**
 * One phase of the check-out/check-in load (warm-up or measured run): runs check-out + check-in
 * pairs for every user until time is up or the budget is spent. A user looks at the clock and the
 * budget (and whether the phase was told to end) only before a check-out, so a phase may end up to
 * one pair after its length; the elapsed time it reports includes that.
 */
final class PhaseRun {

  private final Workload workload;
  private final OperationBudget budget;
  private final LongFunction<PhaseStats> stats;
  private final long deadline;
  private final BooleanSupplier ended;

  private PhaseRun(
      Workload workload,
      OperationBudget budget,
      LongFunction<PhaseStats> stats,
      long deadline,
      BooleanSupplier ended) {
    this.workload = workload;
    this.budget = budget;
    this.stats = stats;
    this.deadline = deadline;
    this.ended = ended;
  }

  /**
   * @return the time from start until the last user stopped
   */
  static Future<Duration> run(
      Workload workload,
      List<VirtualUser> users,
      Duration length,
      OperationBudget budget,
      PhaseStats stats) {
    return run(workload, users, length, budget, stats, () -> false);
  }

  /**
   * As {@link #run(Workload, List, Duration, OperationBudget, PhaseStats)}, ending early once
   * {@code ended} says so (a fault scenario's step is over).
   */
  static Future<Duration> run(
      Workload workload,
      List<VirtualUser> users,
      Duration length,
      OperationBudget budget,
      PhaseStats stats,
      BooleanSupplier ended) {
    return run(workload, users, length, budget, started -> stats, ended);
  }

  /**
   * As {@link #run(Workload, List, Duration, OperationBudget, PhaseStats)}, each pair counted in
   * the figures {@code stats} gives for the time it started at, in nanoseconds since the phase
   * began (a fault's first seconds apart from the rest, say).
   */
  static Future<Duration> run(
      Workload workload,
      List<VirtualUser> users,
      Duration length,
      OperationBudget budget,
      LongFunction<PhaseStats> stats,
      BooleanSupplier ended) {
    long start = System.nanoTime();
    LongFunction<PhaseStats> byStart = now -> stats.apply(now - start);
    PhaseRun run = new PhaseRun(workload, budget, byStart, start + length.toNanos(), ended);
    return Future.all(users.stream().map(run::loop).toList())
        .map(v -> Duration.ofNanos(System.nanoTime() - start));
  }

  private Future<Void> loop(VirtualUser user) {
    Promise<Void> done = Promise.promise();
    next(user, done);
    return done.future();
  }

  // each pair starts from the previous one's completion callback, so the stack never grows
  private void next(VirtualUser user, Promise<Void> done) {
    long now = System.nanoTime();
    if (now - deadline >= 0 || ended.getAsBoolean() || !budget.take(2)) {
      done.complete();
      return;
    }
    workload.pair(user, stats.apply(now)).onComplete(ar -> next(user, done));
  }
}
