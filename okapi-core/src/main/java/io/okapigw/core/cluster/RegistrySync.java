package io.okapigw.core.cluster;

import io.okapigw.core.routing.RoutingTables;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps every node's routing tables in step with the shared registry: after a change, this node
 * rebuilds its tables and tells every other member to rebuild theirs, waiting for them (bounded),
 * so a module registered on one node routes on all nodes once the admin call has answered.
 */
public final class RegistrySync {

  private static final Logger log = LoggerFactory.getLogger(RegistrySync.class);
  private static final String TOPIC = "registry.changed";

  private final RoutingTables tables;
  private final ClusterBus bus;

  private RegistrySync(RoutingTables tables, ClusterBus bus) {
    this.tables = tables;
    this.bus = bus;
  }

  /** Starts rebuilding the tables when another member reports a change. */
  public static Future<RegistrySync> start(RoutingTables tables, ClusterBus bus) {
    return bus.serve(TOPIC, json -> tables.rebuild()).map(new RegistrySync(tables, bus));
  }

  /** Rebuilds here, then on every other member. A member that doesn't answer is logged. */
  public Future<Void> changed() {
    return tables
        .rebuild()
        .compose(v -> bus.broadcast(TOPIC, new JsonObject().put("from", bus.nodeId())))
        .map(this::warnAbout);
  }

  private Void warnAbout(List<String> missing) {
    if (!missing.isEmpty()) {
      log.warn(
          "members {} did not confirm the registry change; they rebuild on their next "
              + "event or restart",
          missing);
    }
    return null;
  }
}
