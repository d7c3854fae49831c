package io.okapigw.core.eureka.events;

import io.okapigw.cache.AuthCache;
import io.okapigw.core.cluster.ClusterBus;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an admin event drops, on every node: the reader ({@link ReaderRole}) applies it here and
 * sends it to every other member over the cluster bus, which acknowledges once it is applied. A
 * user's decisions are revoked without a scan ({@link AuthCache#revokeUser}); a tenant's are
 * scanned off the event loop.
 */
final class AdminEventDrops {

  private static final Logger log = LoggerFactory.getLogger(AdminEventDrops.class);
  private static final String TOPIC = "eureka.admin-event";

  private final Vertx vertx;
  private final AuthCache cache;
  private final ClusterBus bus;

  private AdminEventDrops(Vertx vertx, AuthCache cache, ClusterBus bus) {
    this.vertx = vertx;
    this.cache = cache;
    this.bus = bus;
  }

  /** Starts applying what other members' readers send. */
  static Future<AdminEventDrops> start(Vertx vertx, AuthCache cache, ClusterBus bus) {
    AdminEventDrops drops = new AdminEventDrops(vertx, cache, bus);
    return bus.serve(TOPIC, drops::applyHere).map(drops);
  }

  /** Drops the user's decisions in the tenant, on every node. */
  Future<Void> user(String tenant, String userId) {
    return everywhere(new JsonObject().put("tenant", tenant).put("userId", userId));
  }

  /** Drops the tenant's decisions, on every node. */
  Future<Void> tenant(String tenant) {
    return everywhere(new JsonObject().put("tenant", tenant));
  }

  private Future<Void> everywhere(JsonObject drop) {
    Future<List<String>> others = bus.broadcast(TOPIC, drop);
    return Future.all(applyHere(drop), others)
        .map(
            v -> {
              if (!others.result().isEmpty()) {
                log.warn(
                    "members {} did not confirm dropping the decisions an admin event of realm {}"
                        + " touched",
                    others.result(),
                    drop.getString("tenant"));
              }
              return null;
            });
  }

  private Future<Void> applyHere(JsonObject drop) {
    String tenant = drop.getString("tenant");
    String userId = drop.getString("userId");
    if (userId != null) {
      cache.revokeUser(tenant, userId, Duration.ZERO);
      return Future.succeededFuture();
    }
    return vertx.executeBlocking(() -> cache.invalidateTenant(tenant), false).mapEmpty();
  }
}
