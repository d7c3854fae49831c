package io.okapigw.core.timer;

import io.okapigw.core.cluster.ClusterBus;
import io.okapigw.core.http.HttpError;
import io.okapigw.core.registry.ChangeScope;
import io.okapigw.core.registry.RegistryStore;
import io.okapigw.core.timer.TimerTable.TenantTimers;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The node's {@link TimerService}: the admin operations, and keeping the runner in step. */
final class NodeTimers implements TimerService {

  private static final Logger log = LoggerFactory.getLogger(NodeTimers.class);
  private static final String TOPIC = "timers.changed";

  private final TimerTable table;
  private final TimerStore patches;
  private final RunClaims claims;
  private final ClusterBus bus;
  private final TimerRunner runner;
  private final Scheduler scheduler;
  private Future<List<TenantTimers>> lastRefresh = Future.succeededFuture(List.of());
  private Future<Void> closed;

  private NodeTimers(
      TimerTable table,
      TimerStore patches,
      RunClaims claims,
      ClusterBus bus,
      Scheduler scheduler,
      TimerCalls calls) {
    this.table = table;
    this.patches = patches;
    this.claims = claims;
    this.bus = bus;
    this.scheduler = scheduler;
    this.runner = new TimerRunner(scheduler, claims, table, calls, this::refresh);
  }

  static Future<TimerService> create(
      Vertx vertx,
      RegistryStore store,
      TimerStore patches,
      ClusterBus bus,
      Scheduler scheduler,
      TimerCalls calls) {
    return RunClaims.create(vertx)
        .compose(
            claims -> {
              NodeTimers timers =
                  new NodeTimers(
                      new TimerTable(vertx, store, patches),
                      patches,
                      claims,
                      bus,
                      scheduler,
                      calls);
              ((VertxInternal) vertx)
                  .addCloseHook(
                      completion -> {
                        timers.runner.stop();
                        completion.succeed();
                      });
              return bus.serve(
                      TOPIC,
                      json -> {
                        ChangeScope scope = ChangeScope.fromJson(json.getJsonObject("scope"));
                        return store.refresh(scope).compose(v -> timers.refresh(scope)).mapEmpty();
                      })
                  .map(timers);
            });
  }

  @Override
  public Future<Void> start() {
    return refresh().mapEmpty();
  }

  /** Re-reads every timer and re-arms; one refresh at a time, so an older never wins. */
  synchronized Future<List<TenantTimers>> refresh() {
    lastRefresh =
        lastRefresh.transform(
            ignored ->
                table
                    .all()
                    .onSuccess(runner::apply)
                    .onFailure(
                        e -> log.error("reading the timers failed; they stay as they were", e)));
    return lastRefresh;
  }

  /**
   * Re-reads the timers of the tenants {@code scope} touched (every tenant's, when it may have
   * touched anything) and re-arms them; one refresh at a time.
   *
   * @return the timers re-read
   */
  synchronized Future<List<TenantTimers>> refresh(ChangeScope scope) {
    if (scope.everything()) {
      return refresh();
    }
    lastRefresh =
        lastRefresh.transform(
            ignored ->
                table
                    .tenantsUsing(scope.modules())
                    .compose(
                        using -> {
                          Set<String> tenants = new TreeSet<>(scope.tenants());
                          tenants.addAll(using);
                          return Future.all(tenants.stream().map(table::tenant).toList());
                        })
                    .map(all -> all.<TenantTimers>list())
                    .onSuccess(runner::applyTenants)
                    .onFailure(
                        e -> log.error("reading the timers failed; they stay as they were", e)));
    return lastRefresh;
  }

  @Override
  public Future<Void> changed() {
    return changed(ChangeScope.all());
  }

  @Override
  public Future<Void> changed(ChangeScope scope) {
    Future<Void> here =
        refresh(scope)
            .compose(timers -> scope.everything() ? prune(timers) : pruneTenants(timers))
            .recover(
                e -> {
                  log.error("timers after a registry change: {}", e.getMessage());
                  return Future.succeededFuture(); // logged; the registry change itself stands
                });
    Future<List<String>> others =
        bus.broadcast(
                TOPIC, new JsonObject().put("from", bus.nodeId()).put("scope", scope.toJson()))
            .onSuccess(
                missing -> {
                  if (!missing.isEmpty()) {
                    log.warn(
                        "members {} did not confirm re-reading the timers; they do at their next "
                            + "run (which they check against the store) or restart",
                        missing);
                  }
                });
    return Future.all(here, others).mapEmpty();
  }

  /** Forgets the stored changes and run claims of timers that are gone (module disabled...). */
  private Future<Void> prune(List<TenantTimers> all) {
    Set<String> live =
        all.stream().flatMap(t -> t.timers().stream()).map(Timer::key).collect(Collectors.toSet());
    return patches
        .all()
        .compose(
            stored ->
                Future.all(
                    stored.stream()
                        .filter(p -> !live.contains(p.tenant() + "/" + p.id()))
                        .map(p -> patches.delete(p.tenant(), p.id()))
                        .toList()))
        .compose(v -> claims.forget(live, scheduler.now().minus(Duration.ofDays(1))));
  }

  /** Forgets the stored changes of these tenants' timers that are gone. */
  private Future<Void> pruneTenants(List<TenantTimers> tenants) {
    return Future.all(
            tenants.stream()
                .map(
                    t -> {
                      Set<String> live =
                          t.timers().stream()
                              .map(timer -> timer.id().toString())
                              .collect(Collectors.toSet());
                      return patches
                          .forTenant(t.tenant())
                          .compose(
                              stored ->
                                  Future.all(
                                      stored.keySet().stream()
                                          .filter(id -> !live.contains(id))
                                          .map(id -> patches.delete(t.tenant(), id))
                                          .toList()));
                    })
                .toList())
        .mapEmpty();
  }

  @Override
  public Future<List<JsonObject>> list(String tenant) {
    return table.tenant(tenant).map(t -> t.timers().stream().map(Timer::toJson).toList());
  }

  @Override
  public Future<JsonObject> get(String tenant, String id) {
    return timer(tenant, id).map(Timer::toJson);
  }

  private Future<Timer> timer(String tenant, String id) {
    return table
        .tenant(tenant)
        .map(
            t ->
                t.find(id)
                    .orElseThrow(
                        () ->
                            HttpError.notFound(
                                "tenant "
                                    + tenant
                                    + " has no timer "
                                    + id
                                    + " (ids are <module product>_<index>, as "
                                    + "listed at /_/proxy/tenants/"
                                    + tenant
                                    + "/timers)")));
  }

  @Override
  public Future<Void> patch(String tenant, String id, JsonObject routingEntry) {
    try {
      TimerEntry.check(routingEntry);
    } catch (HttpError e) {
      return Future.failedFuture(e);
    }
    return timer(tenant, id)
        .compose(
            timer -> {
              if (TimerEntry.isReset(routingEntry)) {
                return timer.modified()
                    ? patches.delete(tenant, id).compose(v -> changed(ChangeScope.tenants(tenant)))
                    : Future.succeededFuture();
              }
              JsonObject entry = TimerEntry.withTiming(timer.entry(), routingEntry);
              return timer.modified() && entry.equals(timer.entry())
                  ? Future.succeededFuture()
                  : patches
                      .put(new TimerStore.Patch(tenant, id, entry))
                      .compose(v -> changed(ChangeScope.tenants(tenant)));
            });
  }

  @Override
  public void stopCalls() {
    runner.stop();
  }

  @Override
  public synchronized Future<Void> stop() {
    runner.stop();
    if (closed == null) {
      closed = patches.close();
    }
    return closed;
  }
}
