package io.okapigw.core.upstream.balance;

import io.okapigw.core.routing.Endpoint;
import io.okapigw.core.routing.Instances;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What a node has learned of one module: its instances' states, its calls and retries in flight
 * (the retry budget). An ejection decision takes its lock, so that two event loops never eject more
 * of its instances than allowed.
 */
final class ModuleState {

  final String moduleId;
  final AtomicInteger active = new AtomicInteger();
  final AtomicInteger retries = new AtomicInteger();

  /** The module's instances as last chosen among (what a health check's ejection counts). */
  volatile Instances current;

  private final Map<Endpoint, InstanceState> instances = new ConcurrentHashMap<>();

  ModuleState(String moduleId) {
    this.moduleId = moduleId;
  }

  InstanceState instance(Endpoint endpoint, long now) {
    InstanceState state = instances.get(endpoint);
    return state != null
        ? state
        : instances.computeIfAbsent(endpoint, e -> new InstanceState(e, now));
  }

  /**
   * @return the state of an instance the node has called, or null
   */
  InstanceState known(Endpoint endpoint) {
    return instances.get(endpoint);
  }

  /**
   * Takes one retry from the budget: retries in flight at most {@code percent} of the calls in
   * flight, or {@code min}.
   *
   * @return whether the retry may go
   */
  boolean takeRetry(int percent, int min) {
    while (true) {
      int inFlight = retries.get();
      int allowed = Math.max(min, (int) ((long) active.get() * percent / 100));
      if (inFlight >= allowed) {
        return false;
      }
      if (retries.compareAndSet(inFlight, inFlight + 1)) {
        return true;
      }
    }
  }
}
