package io.okapigw.core.storage;

import io.okapigw.core.timer.TimerStore;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;

/**
 * Changed timers in Okapi's {@code timers} table, as Okapi's {@code TimerDescriptor}s ({@code {id:
 * <tenant>_<product>_<seq>, routingEntry, modified}}): a timer changed through Okapi runs changed
 * here, and the other way round. Rows Okapi wrote for a timer reset to its descriptor ({@code
 * modified: false}) mean no change, as they do to Okapi.
 */
final class OkapiTimerStore implements TimerStore {

  private final Pool pool;

  OkapiTimerStore(Pool pool) {
    this.pool = pool;
  }

  @Override
  public Future<List<Patch>> all() {
    return pool.query("SELECT json FROM timers")
        .execute()
        .map(
            rows -> {
              List<Patch> patches = new ArrayList<>();
              rows.forEach(row -> OkapiReads.timer(row.getJsonObject(0)).ifPresent(patches::add));
              return patches;
            });
  }

  @Override
  public Future<Void> put(Patch patch) {
    return OkapiRows.putTimer(pool, patch.tenant(), patch.id(), patch.entry());
  }

  @Override
  public Future<Void> delete(String tenant, String id) {
    return pool.preparedQuery("DELETE FROM timers WHERE json->>'id' = $1")
        .execute(Tuple.of(tenant + "_" + id))
        .mapEmpty();
  }

  @Override
  public Future<Void> close() {
    return Future.succeededFuture();
  }
}
