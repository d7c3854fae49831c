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
    /** Answered 5xx: the instance answers, and fails. */
    SERVER_ERROR,
    /** Refused, reset or timed out: no answer. */
    FAILED,
    /**
     * Given up by the gateway before any answer (its client left): a failure of the instance only
     * after a long wait ({@code proxy.outlier.abandoned-after}).
     */
    ABANDONED
  }

  private final Balancer balancer;
  private final Instances instances;
  private final ModuleState module;
  private final InstanceState state;
  private final boolean retry;
  private volatile long start;
  private boolean done;

  Pick(
      Balancer balancer,
      Instances instances,
      ModuleState module,
      InstanceState state,
      boolean retry,
      long start) {
    this.balancer = balancer;
    this.instances = instances;
    this.module = module;
    this.state = state;
    this.retry = retry;
    this.start = start;
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

  /**
   * @return whether the call must have a connection of its own, closed after it ({@code Connection:
   *     close}): the instance broke HTTP lately ({@link Balancer#brokeProtocol})
   */
  public boolean connectionOfItsOwn() {
    return balancer.oneCallPerConnection(state);
  }

  /**
   * The call's connection is open and its request about to go: its round trip is timed from now
   * (connecting, or waiting for a pooled connection, is not the instance's answering).
   */
  public void opened() {
    start = balancer.now();
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
    balancer.learn(instances, module, state, outcome, start);
  }
}
