package io.okapigw.core.timer;

import io.okapigw.core.timer.Scheduler.Cancellable;
import io.vertx.core.Future;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This node's armed timers. Every node arms every active timer for its next run; when the run is
 * due, each node claims it ({@link RunClaims}) and only the one that wins reads the timer afresh
 * from the store and, if it is unchanged, makes the call. So a run is made once per cluster, and
 * a node that dies leaves nothing undone: the others were armed all along.
 */
final class TimerRunner {

  private static final Logger log = LoggerFactory.getLogger(TimerRunner.class);

  private final Scheduler scheduler;
  private final RunClaims claims;
  private final TimerTable table;
  private final TimerCalls calls;
  private final Runnable onStale;
  private final Map<String, Armed> armed = new HashMap<>();
  private boolean stopped;

  /** A timer waiting for its next run. */
  private record Armed(Timer timer, Instant run, Cancellable handle) {
  }

  /**
   * @param onStale called when a timer turns out to have changed since it was armed here
   */
  TimerRunner(Scheduler scheduler, RunClaims claims, TimerTable table, TimerCalls calls,
      Runnable onStale) {
    this.scheduler = scheduler;
    this.claims = claims;
    this.table = table;
    this.calls = calls;
    this.onStale = onStale;
  }

  /** Arms the active timers not yet armed, keeps those unchanged, and drops the others. */
  synchronized void apply(List<Timer> timers) {
    if (stopped) {
      return;
    }
    Map<String, Timer> wanted = new HashMap<>();
    timers.stream().filter(t -> t.schedule().active()).forEach(t -> wanted.put(t.key(), t));
    armed.values().removeIf(a -> {
      boolean gone = !a.timer().sameAs(wanted.get(a.timer().key()));
      if (gone) {
        a.handle().cancel();
      }
      return gone;
    });
    wanted.values().stream().filter(t -> !armed.containsKey(t.key()))
        .forEach(t -> arm(t, scheduler.now()));
  }

  /** @return how many timers are armed here */
  synchronized int armedCount() {
    return armed.size();
  }

  /** Cancels every timer; later {@link #apply} calls do nothing. */
  synchronized void stop() {
    stopped = true;
    armed.values().forEach(a -> a.handle().cancel());
    armed.clear();
  }

  private void arm(Timer timer, Instant after) {
    Optional<Instant> run = timer.schedule().nextAfter(after, timer.phaseSeed());
    if (run.isEmpty()) {
      armed.remove(timer.key());
      return;
    }
    Instant at = run.get();
    armed.put(timer.key(), new Armed(timer, at, scheduler.at(at, () -> due(timer, at))));
  }

  private Future<Void> due(Timer timer, Instant run) {
    synchronized (this) {
      Armed current = armed.get(timer.key());
      if (stopped || current == null || !current.run().equals(run)
          || !current.timer().sameAs(timer)) {
        return Future.succeededFuture();
      }
      arm(timer, run);
    }
    return claims.claim(timer.key(), run)
        .compose(won -> won ? runClaimed(timer, run) : Future.<Void>succeededFuture())
        .recover(e -> {
          log.warn("timer {} of tenant {}: run at {} not made: {}", timer.id(), timer.tenant(),
              run, e.getMessage());
          return Future.succeededFuture();
        });
  }

  /** The store is the truth: a node that missed a change must not call on the old timer. */
  private Future<Void> runClaimed(Timer timer, Instant run) {
    return table.tenant(timer.tenant()).compose(tenant -> {
      Optional<Timer> current = tenant.find(timer.id().toString());
      if (current.isPresent() && current.get().sameAs(timer)) {
        return calls.run(tenant, current.get());
      }
      log.info("timer {} of tenant {} changed or went before its run at {}; not called, "
          + "this node re-reads its timers", timer.id(), timer.tenant(), run);
      onStale.run();
      return Future.succeededFuture();
    });
  }
}
