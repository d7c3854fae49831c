package io.okapigw.core.storage;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;

/**
 * A pool to the PostgreSQL database of the storage, with a store's tables created if missing.
 * Several nodes may start at once: the creation runs under a transaction-scoped advisory lock of
 * the store's own.
 */
public final class PostgresTables {

  private PostgresTables() {}

  /**
   * @param connect the database
   * @param poolSize connections in the pool
   * @param lockKey the store's advisory lock
   * @param schema {@code CREATE TABLE IF NOT EXISTS ...} statements
   * @param what the store's tables, for the error ("the timers table")
   * @return the pool, once the tables exist; a failure names the database
   */
  public static Future<Pool> open(
      Vertx vertx,
      PgConnectOptions connect,
      int poolSize,
      long lockKey,
      String schema,
      String what) {
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
                                        + where(connect)
                                        + ": "
                                        + e.getMessage()))));
  }

  /**
   * Runs {@code sql} (statements without results) on its own connection.
   *
   * @return fails naming the database
   */
  static Future<Void> run(Vertx vertx, PgConnectOptions connect, String sql) {
    return PgConnection.connect(vertx, connect)
        .compose(conn -> conn.query(sql).execute().eventually(conn::close))
        .<Void>mapEmpty()
        .recover(
            e ->
                Future.failedFuture(
                    new IllegalStateException(
                        "storage: PostgreSQL at " + where(connect) + ": " + e.getMessage())));
  }

  private static String where(PgConnectOptions connect) {
    return connect.getHost() + ":" + connect.getPort() + "/" + connect.getDatabase();
  }
}
