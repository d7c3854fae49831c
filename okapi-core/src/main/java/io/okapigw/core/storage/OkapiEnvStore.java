package io.okapigw.core.storage;

import io.okapigw.core.deployment.EnvEntry;
import io.okapigw.core.deployment.EnvStore;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code /_/env} in Okapi's {@code env} table, rows as Okapi's {@code EnvEntry} ({@code {name,
 * value, description}}), written as Okapi writes them (an upsert on the name): what Okapi set is
 * served here, and the other way round.
 */
final class OkapiEnvStore implements EnvStore {

  private final Pool pool;
  private final String where;

  /**
   * @param where the database ({@code host:port/db}), named in a 503 when it is away
   */
  OkapiEnvStore(Pool pool, String where) {
    this.pool = pool;
    this.where = where;
  }

  @Override
  public Future<List<EnvEntry>> all() {
    return DatabaseFailures.mapped(
        pool.query("SELECT json FROM env")
            .execute()
            .map(
                rows -> {
                  List<EnvEntry> entries = new ArrayList<>();
                  rows.forEach(
                      row -> {
                        JsonObject json = row.getJsonObject(0);
                        if (json.getValue("name") instanceof String name) {
                          entries.add(
                              new EnvEntry(
                                  name,
                                  json.getValue("value") == null
                                      ? null
                                      : String.valueOf(json.getValue("value")),
                                  json.getValue("description") instanceof String d ? d : null));
                        }
                      });
                  return entries;
                }),
        where);
  }

  @Override
  public Future<Void> put(EnvEntry entry) {
    return DatabaseFailures.mapped(
        pool.preparedQuery(
                "INSERT INTO env (json) VALUES ($1::jsonb)"
                    + " ON CONFLICT ((json->'name')) DO UPDATE SET json = $1::jsonb")
            .execute(Tuple.of(entry.toJson()))
            .<Void>mapEmpty(),
        where);
  }

  @Override
  public Future<Boolean> delete(String name) {
    return DatabaseFailures.mapped(
        pool.preparedQuery("DELETE FROM env WHERE json->>'name' = $1")
            .execute(Tuple.of(name))
            .map(RowSet::rowCount)
            .map(n -> n > 0),
        where);
  }
}
