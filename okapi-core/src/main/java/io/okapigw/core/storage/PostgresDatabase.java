package io.okapigw.core.storage;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClientOptions;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.SqlConnection;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens, initializes and purges a PostgreSQL database holding Okapi's tables and ours. The registry
 * is held in memory too ({@link RegistryMirror}); the pool's connections are bounded in time, so a
 * database that is away fails a change within seconds, never holding it a minute: a connection is
 * made within {@link #CONNECT_TIMEOUT} or not at all, a request waits at most {@link #POOL_WAIT}
 * for one, a statement runs at most {@link #STATEMENT_TIMEOUT} ({@code statement_timeout}), and a
 * connection silent for {@link #SILENT_LIMIT} (a database gone without closing it) is closed.
 */
final class PostgresDatabase {

  private static final Logger log = LoggerFactory.getLogger(PostgresDatabase.class);
  private static final int POOL_SIZE = 8;
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
  static final Duration POOL_WAIT = Duration.ofSeconds(10);
  static final Duration STATEMENT_TIMEOUT = Duration.ofSeconds(30);
  static final Duration SILENT_LIMIT = STATEMENT_TIMEOUT.plusSeconds(10);

  private PostgresDatabase() {}

  static Future<Storage> open(Vertx vertx, PgConnectOptions database) {
    PgConnectOptions options = connectOptions(database);
    Pool pool =
        PgBuilder.pool()
            .with(
                new PoolOptions()
                    .setMaxSize(POOL_SIZE)
                    .setConnectionTimeout((int) POOL_WAIT.toMillis())
                    .setConnectionTimeoutUnit(TimeUnit.MILLISECONDS))
            .with(
                new NetClientOptions()
                    .setConnectTimeout((int) CONNECT_TIMEOUT.toMillis())
                    .setIdleTimeout((int) SILENT_LIMIT.toMillis())
                    .setIdleTimeoutUnit(TimeUnit.MILLISECONDS)
                    .setTcpKeepAlive(true))
            .connectingTo(
                new PgConnectOptions(options)
                    .addProperty("statement_timeout", Long.toString(STATEMENT_TIMEOUT.toMillis())))
            .using(vertx)
            .build();
    String where = where(options);
    return OneWriter.hold(vertx, options)
        .compose(
            writer ->
                pool.withTransaction(
                        c ->
                            OneWriter.schemaLock(c)
                                .compose(v -> quiet(c))
                                .compose(v -> OkapiSchema.create(c))
                                .compose(v -> LayoutMigration.run(c)))
                    .compose(v -> RegistryMirror.load(new PostgresRegistryStore(pool), where))
                    .map(
                        registry ->
                            new Storage(
                                registry,
                                new OkapiTimerStore(pool, where),
                                new OkapiEnvStore(pool, where),
                                () -> writer.close().eventually(pool::close)))
                    .recover(e -> writer.close().transform(x -> Future.failedFuture(e))))
        .recover(e -> pool.close().transform(x -> Future.failedFuture(failure(options, e))));
  }

  static Future<Void> init(Vertx vertx, PgConnectOptions database) {
    return alone(
        vertx,
        database,
        "initdatabase",
        c -> OkapiSchema.dropAll(c).compose(v -> OkapiSchema.create(c)));
  }

  static Future<Void> purge(Vertx vertx, PgConnectOptions database) {
    return alone(
        vertx,
        database,
        "purgedatabase",
        c -> OkapiSchema.dropAll(c).compose(v -> OkapiSchema.createOkapiTables(c)));
  }

  /** Runs {@code work} in a transaction, refused while a gateway node runs on the database. */
  private static Future<Void> alone(
      Vertx vertx,
      PgConnectOptions database,
      String command,
      Function<SqlConnection, Future<Void>> work) {
    PgConnectOptions options = connectOptions(database);
    return PgConnection.connect(vertx, options)
        .recover(e -> Future.failedFuture(failure(options, e)))
        .compose(
            conn ->
                conn.begin()
                    .compose(
                        tx ->
                            OneWriter.exclusive(conn, command)
                                .compose(v -> quiet(conn))
                                .compose(v -> work.apply(conn))
                                .compose(v -> tx.commit()))
                    .eventually(conn::close))
        .onSuccess(v -> log.info("{}: done on {}", command, where(options)));
  }

  /** No NOTICE for each table that exists already (the client would log each as a warning). */
  private static Future<Void> quiet(SqlConnection c) {
    return c.query("SET LOCAL client_min_messages = warning").execute().mapEmpty();
  }

  /** The database's options, the connections named as the gateway's ({@code OneWriter}). */
  static PgConnectOptions connectOptions(PgConnectOptions database) {
    return new PgConnectOptions(database)
        .addProperty("application_name", OkapiSchema.APPLICATION_NAME);
  }

  private static Throwable failure(PgConnectOptions options, Throwable e) {
    return e instanceof IllegalStateException && e.getMessage().startsWith("storage")
        ? e
        : new IllegalStateException(
            "storage: PostgreSQL at " + where(options) + ": " + e.getMessage(), e);
  }

  private static String where(PgConnectOptions options) {
    return options.getHost() + ":" + options.getPort() + "/" + options.getDatabase();
  }
}
