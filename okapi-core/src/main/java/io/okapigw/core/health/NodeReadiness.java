package io.okapigw.core.health;

import io.okapigw.core.server.Drain;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Whether the node is ready for traffic, for {@code /readiness} and {@code /_/proxy/health}: not
 * while it drains, nor while its view of the cluster is in doubt (cut off from its peers, merging
 * after a split, re-reading the registry after a change of members).
 */
public final class NodeReadiness {

  /** What {@code /_/proxy/health}'s {@code status} says. */
  public enum Status {
    UP,
    DRAINING,
    NOT_READY
  }

  private final Drain drain;
  private final Supplier<Optional<String>> cluster;

  /**
   * @param drain whether the node drains
   * @param cluster why the cluster view makes the node not ready, or empty
   */
  public NodeReadiness(Drain drain, Supplier<Optional<String>> cluster) {
    this.drain = drain;
    this.cluster = cluster;
  }

  /**
   * @return the node's status now
   */
  public Status status() {
    if (drain.draining()) {
      return Status.DRAINING;
    }
    return cluster.get().isPresent() ? Status.NOT_READY : Status.UP;
  }

  /**
   * @return why the node is not ready, or empty when it is
   */
  public Optional<String> notReady() {
    if (drain.draining()) {
      return Optional.of("draining: this node is shutting down");
    }
    return cluster.get().map(why -> "not ready: this node is " + why);
  }
}
