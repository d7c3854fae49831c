package io.okapigw.core.storage;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;

/**
 * A pool to the PostgreSQL database of a {@code postgresql://} storage URI, with a store's tables
 * created if missing. Several nodes may start at once: the creation runs under a transaction-scoped
 * advisory lock of the store's own.
 */
public final class PostgresTables {

  private PostgresTables() {}

  /**
   * @param uri {@code postgresql://user:pass@host:port/db}
   * @param poolSize connections in the pool
   * @param lockKey the store's advisory lock
   * @param schema {@code CREATE TABLE IF NOT EXISTS ...} statements
   * @param what the store's tables, for the error ("the timers table")
   * @return the pool, once the tables exist; a failure names the URI's problem or the database
   */
  public static Future<Pool> open(
      Vertx vertx, String uri, int poolSize, long lockKey, String schema, String what) {
    PgConnectOptions connect;
    try {
      connect = PgConnectOptions.fromUri(uri);
    } catch (RuntimeException e) {
      return Future.failedFuture(
          new IllegalArgumentException("storage: not a postgresql://user:pass@host:port/db URI"));
    }
    Pool pool =
        PgBuilder.pool()
            .with(new PoolOptions().setMaxSize(poolSize))
            .connectingTo(connect)
            .using(vertx)
            .build();
    return pool.withTransaction(
            conn ->
                conn.query("SELECT pg_advisory_xact_lock(" + lockKey + ")")
                    .execute()
                    .compose(v -> conn.query(schema).execute()))
        .map(v -> pool)
        .recover(
            e ->
                pool.close()
                    .transform(
                        v ->
                            Future.failedFuture(
                                new IllegalStateException(
                                    "storage: cannot create "
                                        + what
                                        + " in PostgreSQL at "
                                        + connect.getHost()
                                        + ":"
                                        + connect.getPort()
                                        + "/"
                                        + connect.getDatabase()
                                        + ": "
                                        + e.getMessage()))));
  }
}
