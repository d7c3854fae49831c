package io.okapigw.core.upstream.balance;

import io.micrometer.core.instrument.MeterRegistry;
import io.okapigw.core.routing.Endpoint;
import io.okapigw.core.routing.Instances;
import io.okapigw.core.upstream.balance.Pick.Outcome;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Health-aware instance choice, one per node: the instance that costs least now among a module's
 * instances that are not avoided — its latency (a peak EWMA of its answers, or how long it has gone
 * without answering its calls in flight, whichever is longer) times its calls in flight plus one,
 * as Finagle's and Linkerd's peak-EWMA balancers weigh it; the fewest calls in flight among
 * instances never measured; round-robin among equals. Avoided: stalled (calls in flight and no
 * answer for {@code proxy.outlier.stall}: until it answers, checked meanwhile by the module client)
 * or ejected by passive outlier detection (consecutive failures within a window, a call given up by
 * its caller after a long wait among them, eject an instance for a growing back-off, never all of a
 * module's instances, at most {@code proxy.outlier.max-ejected-percent} of them); and the retry
 * budget. An instance that breaks HTTP (an answer nobody asked for) is ejected at once ({@link
 * #brokeProtocol}). It learns from every call's outcome ({@link Pick#done}) and from health checks
 * ({@link #checked}). Time comes from the clock given (a fake in tests); no client type is known
 * here. Thread-safe.
 */
public final class Balancer {

  private static final Logger log = LoggerFactory.getLogger(Balancer.class);

  /** Costs up to this factor of the lowest (plus {@link #EQUAL_SLACK}) count as equal. */
  private static final double EQUAL_FACTOR = 2;

  /**
   * How long after an instance broke HTTP each of its calls has a connection of its own: its next
   * stray answer cannot be taken for another call's.
   */
  public static final Duration PROTOCOL_PROBATION = Duration.ofMinutes(1);

  /** One millisecond, in nanoseconds: latencies closer than that are noise. */
  private static final double EQUAL_SLACK = 1_000_000;

  private final BalanceOptions options;
  private final LongSupplier nanos;
  private final BalanceMetrics metrics;
  private final long stall;
  private final long abandonedAfter;
  private final long decay;
  private final Map<String, ModuleState> modules = new ConcurrentHashMap<>();

  private Balancer(BalanceOptions options, LongSupplier nanos, MeterRegistry registry) {
    this.options = options;
    this.nanos = nanos;
    this.metrics = new BalanceMetrics(registry);
    this.stall = options.stall().toNanos();
    this.abandonedAfter = options.abandonedAfter().toNanos();
    this.decay = options.latencyDecay().toNanos();
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
   * Chooses the instance of a call: among those not in {@code tried}, those not avoided if any
   * (else the avoided ones: a module's instances are never all avoided); among these, the ones
   * whose cost is at most twice the lowest plus a millisecond count as equal (latencies that close
   * are noise); of those the one with the fewest calls in flight, the first from a round-robin
   * start among equals. Avoided: stalled, ejected, or back from an ejection with its one trial call
   * in flight.
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
    InstanceState[] candidates = new InstanceState[n];
    double[] costs = new double[n];
    boolean anyAvailable = false;
    int count = 0;
    for (int i = 0; i < n; i++) {
      Endpoint endpoint = endpoints.get((start + i) % n);
      if (!tried.isEmpty() && tried.contains(endpoint)) {
        continue;
      }
      InstanceState state = module.instance(endpoint, now);
      stallIfSilent(instances, module, state, now);
      candidates[count] = state;
      costs[count] = state.avoided(now) ? -1 : state.cost(now, decay);
      anyAvailable |= costs[count] >= 0;
      count++;
    }
    InstanceState best = cheapest(candidates, costs, count, anyAvailable, now);
    if (best == null) {
      if (retry) {
        module.retries.decrementAndGet();
      }
      return null;
    }
    best.started(now);
    module.active.incrementAndGet();
    return new Pick(this, instances, module, best, retry, now);
  }

  /**
   * @param costs each candidate's cost; -1 for one avoided
   * @param available whether any candidate is not avoided: then only those count, else all do
   * @return among the candidates that count, of those that cost at most {@link #EQUAL_FACTOR} times
   *     the lowest plus {@link #EQUAL_SLACK}, the first with the fewest calls in flight; null for
   *     none
   */
  private InstanceState cheapest(
      InstanceState[] candidates, double[] costs, int count, boolean available, long now) {
    double lowest = Double.MAX_VALUE;
    for (int i = 0; i < count; i++) {
      double cost = available ? costs[i] : candidates[i].cost(now, decay);
      costs[i] = cost;
      if (cost >= 0 && cost < lowest) {
        lowest = cost;
      }
    }
    double equal = lowest * EQUAL_FACTOR + EQUAL_SLACK;
    InstanceState best = null;
    int bestLoad = Integer.MAX_VALUE;
    for (int i = 0; i < count; i++) {
      int load = candidates[i].outstanding.get();
      if (costs[i] >= 0 && costs[i] <= equal && load < bestLoad) {
        best = candidates[i];
        bestLoad = load;
      }
    }
    return best;
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
   * A health check of an instance (Okapi's {@code /_/discovery/health}, an active check, a check of
   * a stalled instance) answered or not: a failure counts as a failed call; an answer forgets its
   * failures, ends its ejection and takes it back if it had stalled.
   */
  public void checked(String moduleId, Endpoint instance, boolean answered) {
    ModuleState module = module(moduleId);
    Instances instances = module.current;
    if (instances == null || !instances.endpoints().contains(instance)) {
      return; // not called through this node: nothing to choose among
    }
    long now = nanos.getAsLong();
    InstanceState state = module.instance(instance, now);
    if (answered) {
      state.takeBack(now);
      heard(module, state, now);
      state.succeeded(now);
    } else {
      failed(instances, module, state, now);
    }
  }

  /**
   * An instance sent bytes that answer no request (a second answer, bytes on an idle connection):
   * its connection is closed by the caller, and the instance is ejected at once, not after {@code
   * proxy.outlier.failures} (never the last of a module's instances, as any ejection); for {@link
   * #PROTOCOL_PROBATION} from now each of its calls has a connection of its own.
   *
   * @param what what it sent, for the log (no header or body of it)
   */
  public void brokeProtocol(String moduleId, Endpoint instance, String what) {
    ModuleState module = module(moduleId);
    long now = nanos.getAsLong();
    InstanceState state = module.instance(instance, now);
    state.brokeProtocol(now);
    metrics.brokeProtocol(moduleId, instance.url());
    log.warn(
        "module {} at {} broke HTTP: {}; its connection is closed, its calls each have a"
            + " connection of their own for {} s",
        moduleId,
        instance.url(),
        what,
        PROTOCOL_PROBATION.toSeconds());
    Instances instances = module.current;
    if (instances != null && instances.endpoints().contains(instance)) {
      ejectIfAllowed(instances, module, state, now);
    }
  }

  /** Whether a call to {@code state} must have a connection of its own. */
  boolean oneCallPerConnection(InstanceState state) {
    return state.brokeProtocolWithin(nanos.getAsLong(), PROTOCOL_PROBATION.toNanos());
  }

  /**
   * Tells {@code action} of every instance that has stalled (calls in flight and none answered for
   * {@code proxy.outlier.stall}, or since then no answer at all): what the module client checks
   * until they answer.
   */
  public void forEachStalled(BiConsumer<String, Endpoint> action) {
    long now = nanos.getAsLong();
    modules.forEach(
        (moduleId, module) -> {
          Instances current = module.current;
          if (current == null) {
            return;
          }
          for (Endpoint endpoint : current.endpoints()) {
            InstanceState state = module.known(endpoint);
            if (state != null && stallIfSilent(current, module, state, now)) {
              action.accept(moduleId, endpoint);
            }
          }
        });
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
    return state == null ? null : state.view(nanos.getAsLong(), stall, decay);
  }

  /** A call that went at {@code start} ended: the balancer learns from it. */
  void learn(
      Instances instances, ModuleState module, InstanceState state, Outcome outcome, long start) {
    long now = nanos.getAsLong();
    long rtt = Math.max(0, now - start);
    switch (outcome) {
      case SUCCEEDED -> {
        state.observe(now, rtt, decay);
        heard(module, state, now);
        state.succeeded(now);
      }
      case SERVER_ERROR -> {
        state.observe(now, rtt, decay);
        heard(module, state, now);
        failed(instances, module, state, now);
      }
      case FAILED -> {
        state.atLeast(now, rtt, decay);
        failed(instances, module, state, now);
      }
      case ABANDONED -> {
        state.atLeast(now, rtt, decay);
        if (rtt >= abandonedAfter) {
          failed(instances, module, state, now);
        }
      }
    }
  }

  private void failed(Instances instances, ModuleState module, InstanceState state, long now) {
    if (state.failed(now, options)) {
      ejectIfAllowed(instances, module, state, now);
    }
  }

  /** The instance answered: if it had stalled, it is back. */
  private void heard(ModuleState module, InstanceState state, long now) {
    if (state.answered(now)) {
      log.info("module {} at {} answers again: taken back", module.moduleId, state.endpoint.url());
    }
  }

  /**
   * Marks the instance stalled if it has gone {@code proxy.outlier.stall} without answering its
   * calls in flight (never more of a module's instances than may be ejected).
   *
   * @return whether it has stalled
   */
  private boolean stallIfSilent(
      Instances instances, ModuleState module, InstanceState state, long now) {
    if (state.stalled()) {
      return true;
    }
    if (!state.silentPast(now, stall)) {
      return false;
    }
    synchronized (module) {
      if (state.stalled() || !mayTakeOut(instances, module, now)) {
        return state.stalled();
      }
      state.stall();
    }
    metrics.stalled(module.moduleId, state.endpoint.url());
    log.warn(
        "module {} at {} stalled: {} calls in flight, none answered for {} ms; no calls until it"
            + " answers a check",
        module.moduleId,
        state.endpoint.url(),
        state.outstanding.get(),
        state.silentFor(now) / 1_000_000);
    return true;
  }

  /**
   * @return whether one more of the module's instances may be out of the choice (ejected or
   *     stalled): never all, at most {@code proxy.outlier.max-ejected-percent}; the module's lock
   *     held
   */
  private boolean mayTakeOut(Instances instances, ModuleState module, long now) {
    List<Endpoint> endpoints = instances.endpoints();
    int n = endpoints.size();
    int allowed = n < 2 ? 0 : Math.min(n - 1, Math.max(1, n * options.maxEjectedPercent() / 100));
    int out = 0;
    for (Endpoint endpoint : endpoints) {
      InstanceState other = module.known(endpoint);
      if (other != null && (other.ejected(now) || other.stalled())) {
        out++;
      }
    }
    return out < allowed;
  }

  private void ejectIfAllowed(
      Instances instances, ModuleState module, InstanceState state, long now) {
    synchronized (module) {
      if (state.ejected(now) || !mayTakeOut(instances, module, now)) {
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

  long now() {
    return nanos.getAsLong();
  }

  private ModuleState module(String moduleId) {
    ModuleState module = modules.get(moduleId);
    return module != null ? module : modules.computeIfAbsent(moduleId, ModuleState::new);
  }
}
