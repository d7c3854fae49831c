package io.okapigw.core.cluster;

import io.okapigw.cache.AuthCache;
import io.okapigw.core.auth.Invalidation;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Auth cache invalidation on every node: applied here, then sent to every other member, which
 * acknowledges once its entries are gone. The answer counts the nodes that applied it and names the
 * members that did not acknowledge within the bus timeout.
 */
public final class ClusterInvalidator {

  private static final Logger log = LoggerFactory.getLogger(ClusterInvalidator.class);
  private static final String TOPIC = "authcache.invalidate";

  private final Vertx vertx;
  private final AuthCache cache;
  private final ClusterBus bus;

  private ClusterInvalidator(Vertx vertx, AuthCache cache, ClusterBus bus) {
    this.vertx = vertx;
    this.cache = cache;
    this.bus = bus;
  }

  /** Creates the invalidator and starts answering other members' invalidations. */
  public static Future<ClusterInvalidator> start(Vertx vertx, AuthCache cache, ClusterBus bus) {
    ClusterInvalidator invalidator = new ClusterInvalidator(vertx, cache, bus);
    return bus.serve(
            TOPIC, json -> invalidator.applyLocally(Invalidation.fromJson(json)).mapEmpty())
        .map(invalidator);
  }

  /** Applies {@code inv} here and on every other member, in parallel. */
  public Future<Outcome> invalidate(Invalidation inv) {
    int members = bus.members().size();
    Future<Long> here = applyLocally(inv);
    Future<List<String>> others = bus.broadcast(TOPIC, inv.toJson());
    return Future.all(here, others)
        .map(
            v ->
                new Outcome(
                    here.result(), Math.max(1, members - others.result().size()), others.result()));
  }

  /**
   * Drops every cached decision of the tenants, here and on every other member, before the future
   * completes (members that do not confirm in time are logged).
   */
  public Future<Void> invalidateTenants(Set<String> tenants) {
    return Future.all(
            tenants.stream()
                .map(
                    t ->
                        invalidate(new Invalidation(t, null, null))
                            .onSuccess(outcome -> warnAbout(t, outcome)))
                .toList())
        .mapEmpty();
  }

  /**
   * Drops every cached decision on this node only (its view of the cluster changed: it may have
   * missed invalidations), off the event loop.
   *
   * @param why what changed, for the log
   */
  public Future<Void> dropAllHere(String why) {
    return applyLocally(new Invalidation(null, null, null))
        .onSuccess(removed -> log.info("{}: dropped all {} cached auth decisions", why, removed))
        .mapEmpty();
  }

  private static void warnAbout(String tenant, Outcome outcome) {
    if (!outcome.unacknowledged().isEmpty()) {
      log.warn(
          "members {} did not confirm dropping the cached auth decisions of tenant {}",
          outcome.unacknowledged(),
          tenant);
    }
  }

  /** Invalidation scans every entry (tens of ms at 100,000): kept off the event loop. */
  private Future<Long> applyLocally(Invalidation inv) {
    return vertx
        .executeBlocking(() -> inv.applyTo(cache), false)
        .onSuccess(removed -> log.debug("{} removed {} auth cache entries", inv, removed));
  }

  /**
   * @param removedHere entries removed on this node
   * @param appliedNodes the nodes that applied it: this one and every member that confirmed
   * @param unacknowledged members that did not confirm in time (empty when all did)
   */
  public record Outcome(long removedHere, int appliedNodes, List<String> unacknowledged) {}
}
