package io.okapigw.core.timer;

import io.micrometer.core.instrument.MeterRegistry;
import io.okapigw.core.cluster.ClusterBus;
import io.okapigw.core.registry.ChangeScope;
import io.okapigw.core.registry.RegistryStore;
import io.okapigw.core.tenantinit.SystemCalls;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * Modules' timers, as Okapi 6.1.5 runs them: each handler of the {@code _timer} system interface of
 * every module enabled for a tenant is called on its schedule ({@code unit}/{@code delay} or {@code
 * schedule: {cron, zone}}) for that tenant, once per cluster, as a system call with the handler's
 * module permissions; Okapi's timer API lists, shows and changes them.
 *
 * <p>Every node arms every timer; the node that claims a run first makes it. Changed timers are
 * stored where the registry is, so they survive restarts.
 */
public interface TimerService {

  /**
   * Creates the node's timer service; {@link #start()} arms the timers.
   *
   * @param vertx the node's Vert.x (its shared data holds the run claims, cluster-wide when
   *     clustered); closing it stops the timers
   * @param store the registry
   * @param patches where changed timers are kept: with the registry
   * @param bus tells the other members when timers change
   * @param scheduler time and wake-ups
   * @param calls makes the system calls
   * @param metrics where {@code okapi_timer_calls_total} is counted
   */
  static Future<TimerService> create(
      Vertx vertx,
      RegistryStore store,
      TimerStore patches,
      ClusterBus bus,
      Scheduler scheduler,
      SystemCalls calls,
      MeterRegistry metrics) {
    return NodeTimers.create(vertx, store, patches, bus, scheduler, new TimerCalls(calls, metrics));
  }

  /** Reads every tenant's timers and arms them. */
  Future<Void> start();

  /**
   * The registry changed (a module enabled or disabled, ...): re-reads the timers here and on every
   * other member (bounded by the bus timeout), and forgets the stored changes of timers that are
   * gone, as Okapi does.
   */
  Future<Void> changed();

  /**
   * A registry change that touched {@code scope}: re-reads the timers of the tenants it touched
   * (those named, those enabling a module named), here and on every other member, and forgets the
   * stored changes of their timers that are gone.
   */
  Future<Void> changed(ChangeScope scope);

  /**
   * @return the tenant's timers as Okapi's TimerDescriptors ({@code {id, routingEntry, modified}}),
   *     sorted by id; empty for an unknown tenant, as in Okapi
   */
  Future<List<JsonObject>> list(String tenant);

  /**
   * @return one timer; fails 404 if the tenant has no timer with that id
   */
  Future<JsonObject> get(String tenant, String id);

  /**
   * Changes a timer's {@code unit}, {@code delay} and {@code schedule} (all three: those left out
   * become absent, so {@code {"delay": "0"}} disables it), on every node; a body with none of the
   * three resets it to its module's descriptor. The change is stored.
   *
   * @param routingEntry the PATCH body: a routing entry
   * @return fails 400 for an unknown field or a bad unit, delay, cron or zone; 404 for an unknown
   *     timer
   */
  Future<Void> patch(String tenant, String id, JsonObject routingEntry);

  /**
   * Makes no more timer calls from this node, which drains: the other members claim the runs (a
   * single node skips them, as it would once down); calls in flight go on, the timer API still
   * works.
   */
  void stopCalls();

  /** Cancels this node's timers. */
  Future<Void> stop();
}
