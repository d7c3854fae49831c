package io.okapigw.core.timer;

import io.okapigw.core.timer.Scheduler.Cancellable;
import io.okapigw.core.timer.TimerTable.TenantTimers;
import io.vertx.core.Future;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This node's armed timers. Every node arms every active timer for its next run; when the run is
 * due, each node claims it ({@link RunClaims}) and only the one that wins reads the timer afresh
 * from the store and, if it is unchanged, makes the call. So a run is made once per cluster, and a
 * node that dies leaves nothing undone: the others were armed all along.
 */
final class TimerRunner {

  private static final Logger log = LoggerFactory.getLogger(TimerRunner.class);

  private final Scheduler scheduler;
  private final RunClaims claims;
  private final TimerTable table;
  private final TimerCalls calls;
  private final Supplier<Future<?>> onStale;
  private final Map<String, Armed> armed = new HashMap<>();
  private boolean stopped;

  /** A timer waiting for its next run, with its tenant's timers as read when it was armed. */
  private record Armed(Timer timer, TenantTimers tenant, Instant run, Cancellable handle) {}

  /**
   * @param onStale re-reads the timers, when one turns out to have changed since it was armed here
   */
  TimerRunner(
      Scheduler scheduler,
      RunClaims claims,
      TimerTable table,
      TimerCalls calls,
      Supplier<Future<?>> onStale) {
    this.scheduler = scheduler;
    this.claims = claims;
    this.table = table;
    this.calls = calls;
    this.onStale = onStale;
  }

  /**
   * Arms the active timers not yet armed, keeps those unchanged (with the tenant's modules as now
   * read), and drops the others.
   */
  synchronized void apply(List<TenantTimers> tenants) {
    apply(tenants, tenant -> true);
  }

  /** As {@link #apply(List)}, for these tenants only: the timers of the others stay as they are. */
  synchronized void applyTenants(List<TenantTimers> tenants) {
    Set<String> ids = tenants.stream().map(TenantTimers::tenant).collect(Collectors.toSet());
    apply(tenants, ids::contains);
  }

  private void apply(List<TenantTimers> tenants, Predicate<String> touched) {
    if (stopped) {
      return;
    }
    Map<String, Timer> wanted = new HashMap<>();
    Map<String, TenantTimers> tenantOf = new HashMap<>();
    tenants.forEach(
        tenant ->
            tenant.timers().stream()
                .filter(t -> t.schedule().active())
                .forEach(
                    t -> {
                      wanted.put(t.key(), t);
                      tenantOf.put(t.key(), tenant);
                    }));
    armed
        .values()
        .removeIf(
            a -> {
              boolean gone =
                  touched.test(a.tenant().tenant())
                      && !a.timer().sameAs(wanted.get(a.timer().key()));
              if (gone) {
                a.handle().cancel();
              }
              return gone;
            });
    armed.replaceAll(
        (key, a) ->
            touched.test(a.tenant().tenant())
                ? new Armed(a.timer(), tenantOf.get(key), a.run(), a.handle())
                : a);
    wanted.values().stream()
        .filter(t -> !armed.containsKey(t.key()))
        .forEach(t -> arm(t, tenantOf.get(t.key()), scheduler.now()));
  }

  /** Cancels every timer; later {@link #apply} calls do nothing. */
  synchronized void stop() {
    stopped = true;
    armed.values().forEach(a -> a.handle().cancel());
    armed.clear();
  }

  private void arm(Timer timer, TenantTimers tenant, Instant after) {
    Optional<Instant> run = timer.schedule().nextAfter(after, timer.phaseSeed());
    if (run.isEmpty()) {
      armed.remove(timer.key());
      return;
    }
    Instant at = run.get();
    armed.put(timer.key(), new Armed(timer, tenant, at, scheduler.at(at, () -> due(timer, at))));
  }

  private Future<Void> due(Timer timer, Instant run) {
    TenantTimers tenant;
    synchronized (this) {
      Armed current = armed.get(timer.key());
      if (stopped
          || current == null
          || !current.run().equals(run)
          || !current.timer().sameAs(timer)) {
        return Future.succeededFuture();
      }
      tenant = current.tenant();
      arm(timer, tenant, run);
    }
    return claims
        .claim(timer.key(), run)
        .compose(won -> won ? runClaimed(tenant, timer, run) : Future.<Void>succeededFuture())
        .recover(
            e -> {
              log.warn(
                  "timer {} of tenant {}: run at {} not made: {}",
                  timer.id(),
                  timer.tenant(),
                  run,
                  e.getMessage());
              return Future.succeededFuture();
            });
  }

  /** The store is the truth: a node that missed a change must not call on the old timer. */
  private Future<Void> runClaimed(TenantTimers tenant, Timer timer, Instant run) {
    return table
        .isCurrent(tenant, timer)
        .compose(
            current -> {
              if (current) {
                return calls.run(tenant, timer);
              }
              log.info(
                  "timer {} of tenant {} changed or went before its run at {}; not called, "
                      + "this node re-reads its timers",
                  timer.id(),
                  timer.tenant(),
                  run);
              return onStale.get().<Void>mapEmpty();
            });
  }
}
