package io.okapigw.core.cluster;

import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.LifecycleEvent;
import com.hazelcast.core.LifecycleEvent.LifecycleState;
import com.hazelcast.spi.properties.ClusterProperty;
import com.hazelcast.spi.properties.HazelcastProperties;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What this node knows of its cluster's membership, and what it does when it changes: on a member
 * added or removed, a merge after a split, or this node found paused past the heartbeat timeout
 * (frozen, its peers have dropped it meanwhile), it re-reads the world ({@link #start}'s {@code
 * reread}: the registry into every table, and on a merge, a pause or a quorum lost or regained, its
 * auth decisions dropped) and is not ready until that is done.
 *
 * <p>Quorum: with {@code cluster-quorum} N, at least N members; else (0) more than half of the most
 * members this node has seen, less one for each member that left by stopping (it says so on the bus
 * before it leaves). A node below it is cut off (or the survivor of its peers: it cannot tell) and
 * not ready until it is back; its tables are then compiled as from a partial registry
 * (RoutingTables fails closed).
 */
public final class ClusterView {

  private static final Logger log = LoggerFactory.getLogger(ClusterView.class);
  private static final String LEAVING = "cluster.leaving";

  /**
   * One re-read of the world.
   *
   * @param why what changed, for the log
   * @param dropDecisions whether this node's auth decisions may be stale (it missed invalidations:
   *     it merged after a split, was paused past the heartbeat timeout, or lost or regained its
   *     quorum): drop them all
   */
  public record Change(String why, boolean dropDecisions) {}

  private final Vertx vertx;
  private final Context context;
  private final ClusterBus bus;
  private final HazelcastInstance hazelcast;
  private final int quorum;
  private final long pauseNanos;
  private final Set<String> leaving = ConcurrentHashMap.newKeySet();
  private final List<UUID> listeners = new ArrayList<>();
  private Function<Change, Future<Void>> reread;
  private List<String> members;
  private Future<Void> rereads = Future.succeededFuture();
  private long lastTick = System.nanoTime();
  private long ticker = -1;
  private volatile int largest;
  private volatile int seen;
  private volatile boolean quorate;
  private volatile boolean merging;
  private volatile long requested;
  private volatile long settled;

  private ClusterView(Vertx vertx, ClusterBus bus, HazelcastInstance hazelcast, int quorum) {
    this.vertx = vertx;
    this.context = vertx.getOrCreateContext();
    this.bus = bus;
    this.hazelcast = hazelcast;
    this.quorum = quorum;
    this.members = bus.members();
    this.seen = members.size();
    this.largest = seen;
    this.quorate = quorum <= 0 || seen >= quorum;
    this.pauseNanos =
        hazelcast == null
            ? Long.MAX_VALUE
            : new HazelcastProperties(hazelcast.getConfig())
                .getNanos(ClusterProperty.MAX_NO_HEARTBEAT_SECONDS);
  }

  /**
   * @param vertx a single-node Vert.x (alone, always whole), or one from {@link
   *     ClusteredVertx#start} (its Hazelcast watched, with its {@code cluster-quorum})
   */
  public static ClusterView create(Vertx vertx, ClusterBus bus) {
    if (!vertx.isClustered()
        || !(ClusteredVertx.managerOf(vertx) instanceof HazelcastClusterManager manager)) {
      return new ClusterView(vertx, bus, null, 1);
    }
    return new ClusterView(
        vertx, bus, manager.getHazelcastInstance(), ClusteredVertx.quorumOf(vertx));
  }

  /**
   * Starts watching the membership (nothing for a single node).
   *
   * @param reread re-reads the registry and, if asked, drops the auth decisions; one at a time, a
   *     failed one tried again a second later
   */
  public Future<Void> start(Function<Change, Future<Void>> reread) {
    this.reread = reread;
    if (hazelcast == null) {
      return Future.succeededFuture();
    }
    listeners.add(hazelcast.getCluster().addMembershipListener(new Members()));
    listeners.add(hazelcast.getLifecycleService().addLifecycleListener(this::lifecycle));
    long period = Math.max(100, Math.min(1000, TimeUnit.NANOSECONDS.toMillis(pauseNanos) / 4));
    context.runOnContext(v -> ticker = vertx.setPeriodic(period, id -> tick()));
    return bus.serve(LEAVING, this::leaving)
        .compose(v -> vertx.deployVerticle(new Goodbye()))
        .mapEmpty();
  }

  /**
   * Tells the other members that this node leaves (so that they count it no more) when its Vert.x
   * closes: Vert.x undeploys its verticles before it leaves the cluster.
   */
  private final class Goodbye extends VerticleBase {
    @Override
    public Future<?> stop() {
      return bus.broadcast(LEAVING, new JsonObject().put("node", bus.nodeId()))
          .andThen(done -> ClusterView.this.stop());
    }
  }

  private void stop() {
    context.runOnContext(v -> vertx.cancelTimer(ticker));
    if (listeners.size() == 2 && hazelcast.getLifecycleService().isRunning()) {
      hazelcast.getCluster().removeMembershipListener(listeners.get(0));
      hazelcast.getLifecycleService().removeLifecycleListener(listeners.get(1));
    }
  }

  /**
   * @return whether this node sees its quorum of members
   */
  public boolean quorate() {
    return quorate;
  }

  /**
   * @return why this node is not ready, or empty when it is: it sees too few members, it merges
   *     after a split, or it re-reads the registry after a membership change
   */
  public Optional<String> notReady() {
    if (merging) {
      return Optional.of("merging with its cluster after a split");
    }
    if (!quorate) {
      return Optional.of(
          "cut off from its cluster: sees "
              + seen
              + " of "
              + largest
              + " members, needs "
              + needed()
              + " (cluster-quorum)");
    }
    if (settled < requested) {
      return Optional.of("re-reading the registry after a change of the cluster's members");
    }
    return Optional.empty();
  }

  private int needed() {
    return quorum > 0 ? quorum : largest / 2 + 1;
  }

  private Future<Void> leaving(JsonObject body) {
    leaving.add(body.getString("node"));
    return Future.succeededFuture();
  }

  private void tick() {
    long now = System.nanoTime();
    long gap = now - lastTick;
    lastTick = now;
    if (gap > pauseNanos) {
      changed(
          "this node was paused "
              + TimeUnit.NANOSECONDS.toSeconds(gap)
              + " s, past the heartbeat timeout",
          true);
    }
  }

  private void lifecycle(LifecycleEvent event) {
    LifecycleState state = event.getState();
    if (state == LifecycleState.MERGING) {
      context.runOnContext(
          v -> {
            merging = true;
            log.warn("merging with the cluster after a split: not ready");
          });
    } else if (state == LifecycleState.MERGED || state == LifecycleState.MERGE_FAILED) {
      context.runOnContext(
          v -> {
            merging = false;
            changed(state == LifecycleState.MERGED ? "merged after a split" : "merge failed", true);
          });
    }
  }

  /** Hazelcast's membership events, on its threads: each handled on this view's context. */
  private final class Members implements MembershipListener {
    @Override
    public void memberAdded(MembershipEvent event) {
      context.runOnContext(v -> changed("member " + event.getMember() + " added", false));
    }

    @Override
    public void memberRemoved(MembershipEvent event) {
      context.runOnContext(v -> changed("member " + event.getMember() + " removed", false));
    }
  }

  private void again(Change change) {
    changed(change.why() + " (again)", change.dropDecisions());
  }

  /** On this view's context: counts the members, then queues a re-read. */
  private void changed(String why, boolean stale) {
    List<String> now = bus.members();
    for (String gone : members) {
      if (!now.contains(gone) && leaving.remove(gone)) {
        largest = Math.max(now.size(), largest - 1);
      }
    }
    members = now;
    seen = now.size();
    largest = Math.max(largest, seen);
    boolean was = quorate;
    quorate = quorum > 0 ? seen >= quorum : 2 * seen > largest;
    Change change = new Change(why, stale || was != quorate);
    long generation = ++requested;
    log.info(
        "{}: {} of {} members seen, {}; re-reading the registry{}",
        why,
        seen,
        largest,
        quorate ? "quorate" : "cut off (not ready)",
        change.dropDecisions() ? " and dropping every cached auth decision" : "");
    rereads = rereads.transform(done -> reread(change, generation));
  }

  private Future<Void> reread(Change change, long generation) {
    return reread
        .apply(change)
        .transform(
            done -> {
              if (done.succeeded()) {
                settled = Math.max(settled, generation);
                log.info("re-read after '{}' done", change.why());
              } else {
                log.warn("re-read after '{}' failed, again in 1 s", change.why(), done.cause());
                vertx.setTimer(1000, id -> context.runOnContext(v -> again(change)));
              }
              return Future.succeededFuture();
            });
  }
}
