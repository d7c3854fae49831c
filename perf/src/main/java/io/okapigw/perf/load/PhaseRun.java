package io.okapigw.perf.load;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * One phase of the check-out/check-in load (warm-up or measured run): runs check-out + check-in
 * pairs for every user until time is up or the budget is spent. A user looks at the clock and the
 * budget (and whether the phase was told to end) only before a check-out, so a phase may end up to
 * one pair after its length; the elapsed time it reports includes that.
 */
final class PhaseRun {

  private final Workload workload;
  private final OperationBudget budget;
  private final PhaseStats stats;
  private final long deadline;
  private final BooleanSupplier ended;

  private PhaseRun(
      Workload workload,
      OperationBudget budget,
      PhaseStats stats,
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
    long start = System.nanoTime();
    PhaseRun run = new PhaseRun(workload, budget, stats, start + length.toNanos(), ended);
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
    if (System.nanoTime() - deadline >= 0 || ended.getAsBoolean() || !budget.take(2)) {
      done.complete();
      return;
    }
    workload.pair(user, stats).onComplete(ar -> next(user, done));
  }
}
