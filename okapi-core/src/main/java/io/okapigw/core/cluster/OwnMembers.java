package io.okapigw.core.cluster;

import com.hazelcast.cluster.Member;
import com.hazelcast.config.Config;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.util.List;

/**
 * Keeps a node out of a Hazelcast cluster it would share with Okapi's nodes. An operator moving
 * from Okapi gives the gateway Okapi's Hazelcast configuration; with an Okapi node still running (a
 * rolling update of the same Helm release, say) both would join one cluster, where Okapi asks every
 * member for its deployments and modules over an event bus the gateway does not serve. So every
 * node of this gateway carries a member attribute, and a node that finds a member without it (nor
 * in the gateway's node map, where nodes of versions before the attribute are) stops: the Okapi
 * nodes keep serving until they are stopped.
 */
final class OwnMembers {

  /** The member attribute of this gateway's nodes. */
  static final String ATTRIBUTE = "okapigw";

  /** Where every node of this gateway records itself (ClusterNodes). */
  private static final String NODES = "okapigw.discovery.nodes";

  private OwnMembers() {}

  /** Marks this node's member as the gateway's. */
  static Config mark(Config config) {
    config.getMemberAttributeConfig().setAttribute(ATTRIBUTE, "node");
    return config;
  }

  /**
   * @return fails naming the members that are not this gateway's nodes
   */
  static Future<Void> check(Vertx vertx, HazelcastClusterManager manager) {
    List<Member> others =
        manager.getHazelcastInstance().getCluster().getMembers().stream()
            .filter(m -> m.getAttribute(ATTRIBUTE) == null)
            .toList();
    if (others.isEmpty()) {
      return Future.succeededFuture();
    }
    return vertx
        .sharedData()
        .<String, Object>getAsyncMap(NODES)
        .compose(nodes -> nodes.keys())
        .compose(
            ours -> {
              List<String> foreign =
                  others.stream()
                      .filter(m -> !ours.contains(m.getUuid().toString()))
                      .map(m -> m.getAddress().toString())
                      .toList();
              return foreign.isEmpty()
                  ? Future.succeededFuture()
                  : Future.failedFuture(
                      new IllegalStateException(
                          "the Hazelcast cluster has members that are not nodes of this gateway"
                              + " (Okapi's?): "
                              + String.join(", ", foreign)
                              + ". Okapi and this gateway cannot share a cluster: stop Okapi's"
                              + " nodes first (they keep serving until then), or give this"
                              + " gateway's nodes a Hazelcast cluster-name of their own"));
            });
  }
}
