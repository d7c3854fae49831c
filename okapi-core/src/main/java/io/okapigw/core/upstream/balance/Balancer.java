package io.okapigw.core.upstream.balance;

import io.micrometer.core.instrument.MeterRegistry;
import io.okapigw.core.routing.Endpoint;
import io.okapigw.core.routing.Instances;
import io.okapigw.core.upstream.balance.Pick.Outcome;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Health-aware instance choice, one per node: the fewest calls in flight among a module's instances
 * that are not ejected, round-robin among equals; passive outlier detection (consecutive failures
 * within a window eject an instance for a growing back-off, never all of a module's instances, at
 * most {@code proxy.outlier.max-ejected-percent} of them); and the retry budget. It learns from
 * every call's outcome ({@link Pick#done}) and from health checks ({@link #checked}). Time comes
 * from the clock given (a fake in tests). Thread-safe.
 */
public final class Balancer {

  private static final Logger log = LoggerFactory.getLogger(Balancer.class);

  private final BalanceOptions options;
  private final LongSupplier nanos;
  private final BalanceMetrics metrics;
  private final Map<String, ModuleState> modules = new ConcurrentHashMap<>();

  private Balancer(BalanceOptions options, LongSupplier nanos, MeterRegistry registry) {
    this.options = options;
    this.nanos = nanos;
    this.metrics = new BalanceMetrics(registry);
  }

  /**
   * @param nanos the clock, in nanoseconds ({@code System::nanoTime}, or a fake)
   * @param registry where ejections, retries and exhausted budgets are counted
   */
  public static Balancer create(
      BalanceOptions options, LongSupplier nanos, MeterRegistry registry) {
    return new Balancer(options, nanos, registry);
  }

  /**
   * @return the settings it runs with
   */
  public BalanceOptions options() {
    return options;
  }

  /**
   * Chooses the instance of a call: among those not in {@code tried}, one not avoided if any (else
   * an avoided one: a module's instances are never all avoided), the one with the fewest calls in
   * flight, the first from a round-robin start among equals. Avoided: ejected, or back from an
   * ejection with its one trial call in flight.
   *
   * @param tried instances this request already failed on
   * @param retry whether the call is a retry, taken from the budget ({@link #takeRetry})
   * @return the pick, counted in flight until done; null if no instance is left
   */
  public Pick choose(Instances instances, Collection<Endpoint> tried, boolean retry) {
    List<Endpoint> endpoints = instances.endpoints();
    int n = endpoints.size();
    ModuleState module = module(instances.moduleId());
    if (module.current != instances) {
      module.current = instances;
    }
    long now = nanos.getAsLong();
    int start = instances.rotate();
    InstanceState best = null;
    boolean bestEjected = true;
    int bestLoad = Integer.MAX_VALUE;
    for (int i = 0; i < n; i++) {
      Endpoint endpoint = endpoints.get((start + i) % n);
      if (!tried.isEmpty() && tried.contains(endpoint)) {
        continue;
      }
      InstanceState state = module.instance(endpoint);
      boolean ejected = state.avoided(now);
      int load = state.outstanding.get();
      if (best == null || bestEjected && !ejected || ejected == bestEjected && load < bestLoad) {
        best = state;
        bestEjected = ejected;
        bestLoad = load;
      }
    }
    if (best == null) {
      if (retry) {
        module.retries.decrementAndGet();
      }
      return null;
    }
    best.outstanding.incrementAndGet();
    module.active.incrementAndGet();
    return new Pick(this, instances, module, best, retry);
  }

  /**
   * Takes a retry of a call to the module from its budget; a retry that gets no pick gives it back.
   *
   * @return whether the retry may go (else it is counted as refused by the budget)
   */
  public boolean takeRetry(String moduleId) {
    ModuleState module = module(moduleId);
    if (module.takeRetry(options.retryBudgetPercent(), options.minRetries())) {
      metrics.retried(moduleId);
      return true;
    }
    metrics.budgetExhausted(moduleId);
    return false;
  }

  /**
   * A call that reached no instance goes to another one: counted as a retry, not taken from the
   * budget (it adds no load to any module).
   */
  public void sentElsewhere(String moduleId) {
    metrics.retried(moduleId);
  }

  /**
   * A health check of an instance (Okapi's {@code /_/discovery/health}) answered or not: a failure
   * counts as a failed call; an answer forgets its failures and ends its ejection.
   */
  public void checked(String moduleId, Endpoint instance, boolean answered) {
    ModuleState module = module(moduleId);
    Instances instances = module.current;
    if (instances == null || !instances.endpoints().contains(instance)) {
      return; // not called through this node: nothing to choose among
    }
    InstanceState state = module.instance(instance);
    long now = nanos.getAsLong();
    if (answered) {
      state.takeBack(now);
      state.succeeded(now);
    } else {
      learn(instances, module, state, Outcome.FAILED);
    }
  }

  /**
   * Tells {@code action} of every instance of every module the node has chosen among (their
   * instances as last chosen among): what active checks check.
   */
  public void forEachInstance(BiConsumer<String, Endpoint> action) {
    modules.forEach(
        (moduleId, module) -> {
          Instances current = module.current;
          if (current != null) {
            current.endpoints().forEach(endpoint -> action.accept(moduleId, endpoint));
          }
        });
  }

  /**
   * @return what the node has learned of an instance; null if it has not called it
   */
  public InstanceView view(String moduleId, Endpoint instance) {
    ModuleState module = modules.get(moduleId);
    InstanceState state = module == null ? null : module.known(instance);
    return state == null ? null : state.view(nanos.getAsLong());
  }

  void learn(Instances instances, ModuleState module, InstanceState state, Outcome outcome) {
    long now = nanos.getAsLong();
    if (outcome == Outcome.SUCCEEDED) {
      state.succeeded(now);
    } else if (outcome == Outcome.FAILED && state.failed(now, options)) {
      ejectIfAllowed(instances, module, state, now);
    }
  }

  private void ejectIfAllowed(
      Instances instances, ModuleState module, InstanceState state, long now) {
    synchronized (module) {
      if (state.ejected(now)) {
        return;
      }
      List<Endpoint> endpoints = instances.endpoints();
      int n = endpoints.size();
      int allowed = n < 2 ? 0 : Math.min(n - 1, Math.max(1, n * options.maxEjectedPercent() / 100));
      int ejected = 0;
      for (Endpoint endpoint : endpoints) {
        InstanceState other = module.known(endpoint);
        if (other != null && other.ejected(now)) {
          ejected++;
        }
      }
      if (ejected >= allowed) {
        return;
      }
      long duration = state.eject(now, options);
      metrics.ejected(module.moduleId, state.endpoint.url());
      log.warn(
          "module {} at {} ejected for {} ms after failing",
          module.moduleId,
          state.endpoint.url(),
          duration / 1_000_000);
    }
  }

  private ModuleState module(String moduleId) {
    ModuleState module = modules.get(moduleId);
    return module != null ? module : modules.computeIfAbsent(moduleId, ModuleState::new);
  }
}
