package io.okapigw.perf.load;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.time.Duration;
import java.util.List;

/**
 * One phase of the check-out/check-in load (warm-up or measured run): runs check-out + check-in
 * pairs for every user until time is up or the budget is spent. A user looks at the clock and the
 * budget only before a check-out, so a phase may end up to one pair after its length; the elapsed
 * time it reports includes that.
 */
final class PhaseRun {

  private final Workload workload;
  private final OperationBudget budget;
  private final PhaseStats stats;
  private final long deadline;

  private PhaseRun(Workload workload, OperationBudget budget, PhaseStats stats, long deadline) {
    this.workload = workload;
    this.budget = budget;
    this.stats = stats;
    this.deadline = deadline;
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
    long start = System.nanoTime();
    PhaseRun run = new PhaseRun(workload, budget, stats, start + length.toNanos());
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
    if (System.nanoTime() - deadline >= 0 || !budget.take(2)) {
      done.complete();
      return;
    }
    workload.pair(user, stats).onComplete(ar -> next(user, done));
  }
}
