package io.okapigw.core.storage;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import io.vertx.sqlclient.SqlConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One kind of writer at a time on a database Okapi and this gateway share. Okapi keeps its registry
 * in memory and writes whole rows from it, so an Okapi and a gateway writing at once would undo
 * each other's changes. While a gateway node runs, it holds a shared advisory lock on a connection
 * of its own; the trigger of {@link OkapiSchema} refuses writes to Okapi's tables from any other
 * program while that lock is held (Okapi answers them with a 500 quoting the reason, or stops at
 * start if it needs to write then). It goes with the node: stopped, crashed or cut off, the lock is
 * released and Okapi may write again. Several gateway nodes hold it together; {@code initdatabase}
 * and {@code purgedatabase} take it exclusively, so they refuse to run under live nodes.
 */
final class OneWriter {

  /** The advisory lock's first key ({@code 'okgw'}). */
  static final int LOCK_CLASS = 0x6f6b6777;

  /** The lock held (shared) by every running gateway node. */
  static final int LOCK_NODES = 1;

  /** The lock creating or migrating the tables (transaction-scoped, exclusive). */
  static final int LOCK_SCHEMA = 2;

  private static final Logger log = LoggerFactory.getLogger(OneWriter.class);
  private static final long RETRY_MS = 5000;

  private final Vertx vertx;
  private final PgConnectOptions options;
  private PgConnection holder;
  private boolean closed;

  private OneWriter(Vertx vertx, PgConnectOptions options) {
    this.vertx = vertx;
    this.options = options;
  }

  /**
   * Takes the nodes' lock on a connection of its own and keeps it: if that connection is lost, it
   * takes it again (every 5 s until it can).
   *
   * @return the holder, once the lock is held
   */
  static Future<OneWriter> hold(Vertx vertx, PgConnectOptions options) {
    OneWriter writer = new OneWriter(vertx, options);
    return writer.acquire().map(writer);
  }

  private Future<Void> acquire() {
    return PgConnection.connect(vertx, options)
        .compose(
            conn ->
                conn.query("SELECT pg_advisory_lock_shared(" + LOCK_CLASS + ", " + LOCK_NODES + ")")
                    .execute()
                    .map(conn)
                    .onFailure(e -> conn.close()))
        .map(
            conn -> {
              synchronized (this) {
                if (closed) {
                  conn.close();
                  return null;
                }
                holder = conn;
              }
              conn.closeHandler(v -> lost());
              return null;
            });
  }

  private synchronized void lost() {
    holder = null;
    if (!closed) {
      retry(true);
    }
  }

  /** Tries again later; says so then (not at once: a closing Vert.x drops the connection too). */
  private void retry(boolean first) {
    try {
      vertx.setTimer(
          RETRY_MS,
          t -> {
            synchronized (this) {
              if (closed) {
                return;
              }
            }
            if (first) {
              log.warn(
                  "storage: lost the connection that marks this gateway as the database's writer;"
                      + " until it is back, Okapi's writes are not refused");
            }
            acquire()
                .onSuccess(v -> log.info("storage: the writer mark is back"))
                .onFailure(e -> retry(false));
          });
    } catch (IllegalStateException e) {
      // Vert.x is closed: so is this node
    }
  }

  /** Releases the lock (the connection closes). */
  Future<Void> close() {
    PgConnection conn;
    synchronized (this) {
      closed = true;
      conn = holder;
      holder = null;
    }
    return conn == null ? Future.succeededFuture() : conn.close();
  }

  /**
   * In a transaction: takes the nodes' lock exclusively, until the transaction ends.
   *
   * @return fails, naming the reason, if a gateway node is running on the database
   */
  static Future<Void> exclusive(SqlConnection conn, String command) {
    return conn.query("SELECT pg_try_advisory_xact_lock(" + LOCK_CLASS + ", " + LOCK_NODES + ")")
        .execute()
        .compose(
            rows ->
                Boolean.TRUE.equals(rows.iterator().next().getBoolean(0))
                    ? Future.succeededFuture()
                    : Future.failedFuture(
                        new IllegalStateException(
                            command
                                + ": a gateway node is running on this database; stop every node"
                                + " first")));
  }

  /** In a transaction: one node at a time creates or migrates the tables. */
  static Future<Void> schemaLock(SqlConnection conn) {
    return conn.query("SELECT pg_advisory_xact_lock(" + LOCK_CLASS + ", " + LOCK_SCHEMA + ")")
        .execute()
        .mapEmpty();
  }
}
