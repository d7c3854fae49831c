package io.okapigw.core.cluster;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.core.spi.cluster.ClusterManager;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;

/**
 * Messages every other gateway node must act on and acknowledge: a registry change, an auth cache
 * invalidation. Each node answers on its own address; the sender waits for every member it knows
 * of, bounded by a timeout, and learns which ones did not answer in time.
 */
public interface ClusterBus {

  /**
   * @param vertx a single-node Vert.x, or a clustered one from {@link ClusteredVertx#start}
   * @return the bus of a clustered Vert.x, or one with no other members for a single node
   * @throws IllegalArgumentException if {@code vertx} is clustered but was not started by {@link
   *     ClusteredVertx#start} (its cluster manager is not reachable through public API)
   */
  static ClusterBus create(Vertx vertx, Duration timeout) {
    return create(vertx, timeout, SINGLE_NODE_ID);
  }

  /** The id of a node alone: Okapi's when it is not clustered (its {@code host}). */
  String SINGLE_NODE_ID = "localhost";

  /**
   * As {@link #create(Vertx, Duration)}.
   *
   * @param singleNodeId this node's id when it is not clustered (Okapi names it by its {@code
   *     host})
   */
  static ClusterBus create(Vertx vertx, Duration timeout, String singleNodeId) {
    if (!vertx.isClustered()) {
      return new SingleNodeBus(singleNodeId);
    }
    ClusterManager manager = ClusteredVertx.managerOf(vertx);
    if (manager == null) {
      throw new IllegalArgumentException(
          "a clustered Vert.x must come from ClusteredVertx.start,"
              + " which keeps its cluster manager (Vert.x has no public getter for it)");
    }
    return new EventBusClusterBus(vertx, manager, timeout);
  }

  /**
   * @return this node's id in the cluster (for a single node the one it was made with, {@code
   *     localhost} by default, as Okapi's)
   */
  String nodeId();

  /**
   * @return the ids of every member, this node included
   */
  List<String> members();

  /**
   * Answers {@code topic} messages sent to this node.
   *
   * @param handler does the work; the sender is acknowledged when its future succeeds
   */
  Future<Void> serve(String topic, Function<JsonObject, Future<Void>> handler);

  /**
   * Sends {@code body} on {@code topic} to every other member and waits for their answers.
   *
   * @return the members that did not acknowledge within the timeout (empty when all did)
   */
  Future<List<String>> broadcast(String topic, JsonObject body);
}
