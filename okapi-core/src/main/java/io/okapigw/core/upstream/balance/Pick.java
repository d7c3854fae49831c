package io.okapigw.core.upstream.balance;

import io.okapigw.core.routing.Endpoint;
import io.okapigw.core.routing.Instances;

/**
 * The instance a call goes to, counted among its calls in flight until {@link #done} tells the
 * balancer how the call went. Done once; later reports are ignored.
 */
public final class Pick {

  /** How a call went, as the balancer learns from it. */
  public enum Outcome {
    /** Answered (below 500): the instance is well. */
    SUCCEEDED,
    /** Refused, reset, timed out, or answered 5xx. */
    FAILED,
    /** Given up by the gateway (the client left): says nothing of the instance. */
    ABANDONED
  }

  private final Balancer balancer;
  private final Instances instances;
  private final ModuleState module;
  private final InstanceState state;
  private final boolean retry;
  private boolean done;

  Pick(
      Balancer balancer,
      Instances instances,
      ModuleState module,
      InstanceState state,
      boolean retry) {
    this.balancer = balancer;
    this.instances = instances;
    this.module = module;
    this.state = state;
    this.retry = retry;
  }

  /**
   * @return the instance chosen
   */
  public Endpoint endpoint() {
    return state.endpoint;
  }

  /**
   * @return whether the call is a retry (counted against the module's retry budget until done)
   */
  public boolean retry() {
    return retry;
  }

  /** The call is over (its answer's head came, or it failed): the balancer learns from it. */
  public void done(Outcome outcome) {
    synchronized (this) {
      if (done) {
        return;
      }
      done = true;
    }
    state.outstanding.decrementAndGet();
    module.active.decrementAndGet();
    if (retry) {
      module.retries.decrementAndGet();
    }
    balancer.learn(instances, module, state, outcome);
  }
}
