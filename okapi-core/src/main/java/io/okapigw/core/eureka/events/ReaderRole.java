package io.okapigw.core.eureka.events;

import io.okapigw.core.cluster.ClusterBus;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.shareddata.AsyncMap;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one node of the cluster that reads for every node what needs reading once: Keycloak's admin
 * events ({@link AdminEvents}) and the entitlements' safety sweep ({@link Entitlements}). The
 * reader is the member with the least id among the members that announced themselves as readers (a
 * cluster-wide map, written at start by the nodes that can read Keycloak's admin events; where none
 * can, each node holds the role for itself). Hazelcast's member list is the lease: a reader that
 * dies or leaves is no member any more, and the next member in id order holds the role from its
 * next round; no clock is compared across nodes. Asked at every round, so a node that joins with a
 * lesser id takes over at its first round; while the members' views differ for a moment two nodes
 * may both read, which costs a duplicate read and nothing else (what they broadcast drops
 * decisions, idempotent; where they read from is kept in the cluster). A single node reads.
 */
public final class ReaderRole {

  private static final Logger log = LoggerFactory.getLogger(ReaderRole.class);
  private static final String MAP = "okapigw.eureka.readers";

  private final Vertx vertx;
  private final ClusterBus bus;
  private final AtomicBoolean held = new AtomicBoolean();

  private ReaderRole(Vertx vertx, ClusterBus bus) {
    this.vertx = vertx;
    this.bus = bus;
  }

  /**
   * Takes part in the choice of the reader.
   *
   * @param candidate whether this node can read (it has Keycloak's admin client and a non-zero
   *     {@code eureka.admin-events-interval}): only candidates are announced
   * @return the role, once announced
   */
  public static Future<ReaderRole> start(Vertx vertx, ClusterBus bus, boolean candidate) {
    ReaderRole role = new ReaderRole(vertx, bus);
    return candidate
        ? role.readers().compose(m -> m.put(bus.nodeId(), "reader")).map(role)
        : Future.succeededFuture(role);
  }

  /**
   * @return whether this node reads now (the role's changes are logged)
   */
  public Future<Boolean> held() {
    return readers()
        .compose(AsyncMap::keys)
        .map(
            announced -> {
              Set<String> members = new HashSet<>(bus.members());
              String reader =
                  announced.stream()
                      .filter(members::contains)
                      .min(Comparator.naturalOrder())
                      .orElse(bus.nodeId());
              boolean now = reader.equals(bus.nodeId());
              if (held.getAndSet(now) != now) {
                log.info(
                    now
                        ? "this node reads Keycloak's admin events and sweeps the entitlements for"
                            + " the cluster"
                        : "node {} reads Keycloak's admin events for the cluster now, not this one",
                    reader);
              }
              return now;
            });
  }

  /** This node reads no more: the role goes to the next member at its next round. */
  public Future<Void> leave() {
    return readers().compose(m -> m.remove(bus.nodeId())).mapEmpty();
  }

  private Future<AsyncMap<String, String>> readers() {
    return vertx.sharedData().getAsyncMap(MAP);
  }
}
