package io.okapigw.core.timer;

import io.okapigw.core.storage.PostgresTables;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Changed timers in PostgreSQL, next to the registry: they survive a full restart. */
final class PostgresTimerStore implements TimerStore {

  private static final String SCHEMA =
      "CREATE TABLE IF NOT EXISTS okapigw_timers (tenant text,"
          + " id text, routing_entry text NOT NULL, PRIMARY KEY (tenant, id))";

  private final Pool pool;

  private PostgresTimerStore(Pool pool) {
    this.pool = pool;
  }

  /** Connects and creates the table if missing (several nodes may do this at once). */
  static Future<TimerStore> connect(Vertx vertx, PgConnectOptions connect) {
    return PostgresTables.open(vertx, connect, 2, 727275, SCHEMA, "the timers table")
        .map(PostgresTimerStore::new);
  }

  @Override
  public Future<Map<String, JsonObject>> forTenant(String tenant) {
    return pool.preparedQuery("SELECT id, routing_entry FROM okapigw_timers WHERE tenant = $1")
        .execute(Tuple.of(tenant))
        .map(
            rows -> {
              Map<String, JsonObject> patches = new HashMap<>();
              rows.forEach(row -> patches.put(row.getString(0), new JsonObject(row.getString(1))));
              return patches;
            });
  }

  @Override
  public Future<List<Patch>> all() {
    return pool.query("SELECT tenant, id, routing_entry FROM okapigw_timers")
        .execute()
        .map(
            rows -> {
              List<Patch> patches = new ArrayList<>();
              rows.forEach(row -> patches.add(patchOf(row)));
              return patches;
            });
  }

  private static Patch patchOf(Row row) {
    return new Patch(row.getString(0), row.getString(1), new JsonObject(row.getString(2)));
  }

  @Override
  public Future<Void> put(Patch patch) {
    return pool.preparedQuery(
            "INSERT INTO okapigw_timers VALUES ($1, $2, $3) ON CONFLICT"
                + " (tenant, id) DO UPDATE SET routing_entry = EXCLUDED.routing_entry")
        .execute(Tuple.of(patch.tenant(), patch.id(), patch.entry().encode()))
        .mapEmpty();
  }

  @Override
  public Future<Void> delete(String tenant, String id) {
    return pool.preparedQuery("DELETE FROM okapigw_timers WHERE tenant = $1 AND id = $2")
        .execute(Tuple.of(tenant, id))
        .mapEmpty();
  }

  @Override
  public Future<Void> close() {
    return pool.close();
  }
}
