package io.okapigw.core.cluster;

import io.okapigw.core.registry.ChangeScope;
import io.okapigw.core.routing.RoutingTables;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps every node's routing tables in step with the shared registry: after a change, this node
 * recompiles the tables the change touched and tells every other member what it touched, waiting
 * for them (bounded), so a module registered on one node routes on all nodes once the admin call
 * has answered. A member recompiles the same tables, by the same scope ({@link
 * RoutingTables#changedElsewhere}). When a member did not confirm a change, the next change is sent
 * as touching everything, so a member that missed one is whole again after the next.
 */
public final class RegistrySync {

  private static final Logger log = LoggerFactory.getLogger(RegistrySync.class);
  private static final String TOPIC = "registry.changed";

  private final RoutingTables tables;
  private final ClusterBus bus;
  private volatile boolean unconfirmed;

  private RegistrySync(RoutingTables tables, ClusterBus bus) {
    this.tables = tables;
    this.bus = bus;
  }

  /** Starts applying the changes other members report. */
  public static Future<RegistrySync> start(RoutingTables tables, ClusterBus bus) {
    return bus.serve(
            TOPIC,
            json -> tables.changedElsewhere(ChangeScope.fromJson(json.getJsonObject("scope"))))
        .map(new RegistrySync(tables, bus));
  }

  /**
   * Applies the change here, then on every other member. A member that doesn't answer is logged.
   *
   * @param scope what the change touched
   */
  public Future<Void> changed(ChangeScope scope) {
    ChangeScope sent = unconfirmed ? ChangeScope.all() : scope;
    unconfirmed = false;
    return tables
        .apply(scope)
        .compose(
            v ->
                bus.broadcast(
                    TOPIC, new JsonObject().put("from", bus.nodeId()).put("scope", sent.toJson())))
        .map(this::warnAbout);
  }

  private Void warnAbout(List<String> missing) {
    if (!missing.isEmpty()) {
      unconfirmed = true;
      log.warn(
          "members {} did not confirm the registry change; the next change is sent to every member"
              + " as touching everything",
          missing);
    }
    return null;
  }
}
