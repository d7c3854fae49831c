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
  private final String where;

  /**
   * @param where the database ({@code host:port/db}), named in a 503 when it is away
   */
  OkapiTimerStore(Pool pool, String where) {
    this.pool = pool;
    this.where = where;
  }

  @Override
  public Future<List<Patch>> all() {
    return DatabaseFailures.mapped(
        pool.query("SELECT json FROM timers")
            .execute()
            .map(
                rows -> {
                  List<Patch> patches = new ArrayList<>();
                  rows.forEach(
                      row -> OkapiReads.timer(row.getJsonObject(0)).ifPresent(patches::add));
                  return patches;
                }),
        where);
  }

  @Override
  public Future<Void> put(Patch patch) {
    return DatabaseFailures.mapped(
        OkapiRows.putTimer(pool, patch.tenant(), patch.id(), patch.entry()), where);
  }

  @Override
  public Future<Void> delete(String tenant, String id) {
    return DatabaseFailures.mapped(
        pool.preparedQuery("DELETE FROM timers WHERE json->>'id' = $1")
            .execute(Tuple.of(tenant + "_" + id))
            .mapEmpty(),
        where);
  }

  @Override
  public Future<Void> close() {
    return Future.succeededFuture();
  }
}
