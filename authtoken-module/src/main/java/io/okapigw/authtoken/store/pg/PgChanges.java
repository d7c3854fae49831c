package io.okapigw.authtoken.store.pg;

import io.okapigw.authtoken.store.StoreChange;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.pubsub.PgSubscriber;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells other instances sharing the database what changed (NOTIFY inside the writing transaction,
 * so it is delivered only on commit) and listens for what they changed (LISTEN on a connection of
 * its own, reconnecting every second; after a reconnect changes may have been missed, so it reports
 * {@link StoreChange.Kind#ALL}).
 */
final class PgChanges {
  static final String CHANNEL = "authtoken_changes";
  private static final Logger LOG = LoggerFactory.getLogger(PgChanges.class);

  private final PgSubscriber subscriber;
  private volatile Handler<StoreChange> handler = change -> {};
  private boolean subscribedOnce;

  private PgChanges(PgSubscriber subscriber) {
    this.subscriber = subscriber;
  }

  static Future<PgChanges> listen(Vertx vertx, PgConnectOptions options) {
    PgChanges changes =
        new PgChanges(PgSubscriber.subscriber(vertx, options).reconnectPolicy(retries -> 1000L));
    changes
        .subscriber
        .channel(CHANNEL)
        .subscribeHandler(v -> changes.subscribed())
        .handler(changes::received);
    return changes.subscriber.connect().map(changes);
  }

  static Future<Void> notify(SqlConnection conn, StoreChange change) {
    JsonObject payload =
        new JsonObject()
            .put("kind", change.kind().name())
            .put("tenant", change.tenant())
            .put("subject", change.subject())
            .put("until", change.until() == null ? null : change.until().toEpochMilli());
    return conn.preparedQuery("SELECT pg_notify($1, $2)")
        .execute(Tuple.of(CHANNEL, payload.encode()))
        .mapEmpty();
  }

  void handler(Handler<StoreChange> handler) {
    this.handler = handler;
  }

  Future<Void> close() {
    return subscriber.close();
  }

  private void subscribed() {
    if (subscribedOnce) {
      LOG.info("listening to {} again; dropping cached data", CHANNEL);
      handler.handle(new StoreChange(StoreChange.Kind.ALL, null, null, null));
    }
    subscribedOnce = true;
  }

  private void received(String payload) {
    try {
      JsonObject json = new JsonObject(payload);
      Long until = json.getLong("until");
      handler.handle(
          new StoreChange(
              StoreChange.Kind.valueOf(json.getString("kind")),
              json.getString("tenant"),
              json.getString("subject"),
              until == null ? null : Instant.ofEpochMilli(until)));
    } catch (RuntimeException e) {
      LOG.warn("ignoring malformed notification on {}", CHANNEL);
    }
  }
}
