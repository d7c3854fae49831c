package io.okapigw.authtoken.store.pg;

import io.okapigw.authtoken.http.ApiException;
import io.okapigw.authtoken.store.AuthStore;
import io.okapigw.authtoken.store.PermissionSetRecord;
import io.okapigw.authtoken.store.RefreshTokenRecord;
import io.okapigw.authtoken.store.RevokedSession;
import io.okapigw.authtoken.store.StoreChange;
import io.okapigw.authtoken.store.UserRecord;
import io.okapigw.authtoken.store.UserUpdate;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClientOptions;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.stream.StreamSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The PostgreSQL store (vertx-pg-client). Tables {@code authtoken_*} are created at start; changes
 * other instances must know about are announced with NOTIFY ({@link PgChanges}).
 */
public final class PgAuthStore implements AuthStore {
  /** Connections in the pool. */
  public static final int POOL_SIZE = 8;

  /**
   * The longest a request waits for a free connection: far above a storm's queue on a live database
   * (queries take milliseconds), so only a database that is away makes it wait this, and then it
   * gets a 503 instead of waiting on (a login used to wait until the gateway gave up).
   */
  static final Duration POOL_WAIT = Duration.ofSeconds(10);

  /** How long the first call of a start may take: a pool wait and a statement. */
  static final Duration FIRST_CALL = POOL_WAIT.plus(Duration.ofSeconds(10));

  /** Pools tried at start before the store fails to open. */
  static final int ATTEMPTS = 3;

  private static final Logger LOG = LoggerFactory.getLogger(PgAuthStore.class);

  /** A new connection is made within this or not at all. */
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

  /** PostgreSQL's {@code statement_timeout} for every statement of the pool. */
  static final Duration STATEMENT_TIMEOUT = Duration.ofSeconds(10);

  /** A connection silent this long (a database gone without closing it) is closed. */
  static final Duration SILENT_LIMIT = STATEMENT_TIMEOUT.plusSeconds(10);

  private static final String USER_COLUMNS =
      "tenant, id, username, active, password_hash, permissions";

  private final Pool pool;
  private final PgChanges changes;
  private final PgSessions sessions;

  private PgAuthStore(Pool pool, PgChanges changes) {
    this.pool = pool;
    this.changes = changes;
    this.sessions = new PgSessions(pool);
  }

  /**
   * Connects, creates the schema if missing, and starts listening for other instances' changes.
   *
   * @param vertx Vert.x
   * @param uri {@code postgresql://user:pass@host:port/db}
   * @return the store
   */
  public static Future<AuthStore> open(Vertx vertx, String uri) {
    PgConnectOptions options;
    try {
      options = PgConnectOptions.fromUri(uri);
    } catch (RuntimeException e) {
      return Future.failedFuture(new IllegalArgumentException("--store: invalid PostgreSQL URI"));
    }
    return open(vertx, options, 1);
  }

  /**
   * One try: a pool, the schema, the listener. The first call is bounded ({@link #FIRST_CALL}):
   * Vert.x 5's pool, cancelling a wait that timed out while the first connect was still under way
   * (a busy machine, the event loop blocked for seconds), throws a NullPointerException inside the
   * driver and may never complete the call; a call that timed out closes this pool and a new one
   * tries again, up to {@link #ATTEMPTS} times.
   */
  private static Future<AuthStore> open(Vertx vertx, PgConnectOptions options, int attempt) {
    Pool pool = pool(vertx, options);
    return PgSchema.create(pool)
        .timeout(FIRST_CALL.toMillis(), TimeUnit.MILLISECONDS)
        .compose(v -> PgChanges.listen(vertx, options))
        .<AuthStore>map(changes -> new PgAuthStore(pool, changes))
        .recover(
            e -> {
              pool.close();
              if (attempt >= ATTEMPTS || !timedOut(e)) {
                return Future.failedFuture(e);
              }
              LOG.warn(
                  "PostgreSQL store: the first call got no answer in time ({}; try {} of {}):"
                      + " trying again with a new pool",
                  e.getMessage(),
                  attempt,
                  ATTEMPTS);
              return open(vertx, options, attempt + 1);
            });
  }

  /**
   * Our bound on the first call, or the pool's wait ({@code "Timeout"}, a NoStackTraceThrowable):
   * the database did not answer in time, where a refused connection or a bad password fails at once
   * and is not tried again.
   */
  private static boolean timedOut(Throwable e) {
    return e instanceof TimeoutException
        || e.getMessage() != null
            && e.getMessage().toLowerCase(java.util.Locale.ROOT).contains("timeout");
  }

  private static Pool pool(Vertx vertx, PgConnectOptions options) {
    return PgBuilder.pool()
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
  }

  @Override
  public Future<Void> insertUser(UserRecord u) {
    return notifying(
        userChange(u.tenant(), u.id()),
        conn ->
            conn.preparedQuery(
                    "INSERT INTO authtoken_users ("
                        + USER_COLUMNS
                        + ") VALUES ($1, $2, $3, $4, $5, $6)")
                .execute(
                    Tuple.of(
                        u.tenant(),
                        u.id(),
                        u.username(),
                        u.active(),
                        u.passwordHash(),
                        array(u.permissions())))
                .recover(e -> Future.failedFuture(duplicate(e, u.id(), u.username())))
                .mapEmpty());
  }

  @Override
  public Future<UserRecord> updateUser(String tenant, String id, UserUpdate update) {
    return notifying(
        userChange(tenant, id),
        conn ->
            conn.preparedQuery(
                    "UPDATE authtoken_users SET "
                        + "username = COALESCE($3, username), active = COALESCE($4, active), "
                        + "password_hash = COALESCE($5, password_hash) WHERE tenant = $1 AND id = $2 RETURNING "
                        + USER_COLUMNS)
                .execute(
                    Tuple.of(tenant, id, update.username(), update.active(), update.passwordHash()))
                .recover(e -> Future.failedFuture(duplicate(e, id, update.username())))
                .map(rows -> existing(rows, id)));
  }

  @Override
  public Future<UserRecord> findUser(String tenant, String id) {
    return findUserWhere("id", tenant, id);
  }

  @Override
  public Future<UserRecord> findUserByUsername(String tenant, String username) {
    return findUserWhere("username", tenant, username);
  }

  /** The tenant's user whose {@code column} (a constant of this class's) is {@code value}. */
  private Future<UserRecord> findUserWhere(String column, String tenant, String value) {
    return pool.preparedQuery(
            "SELECT "
                + USER_COLUMNS
                + " FROM authtoken_users WHERE tenant = $1 AND "
                + column
                + " = $2")
        .execute(Tuple.of(tenant, value))
        .map(rows -> first(rows, PgAuthStore::user));
  }

  @Override
  public Future<Void> setPermissions(String tenant, String id, List<String> permissions) {
    return notifying(
        userChange(tenant, id),
        conn ->
            conn.preparedQuery(
                    "UPDATE authtoken_users SET permissions = $3 WHERE tenant = $1 AND id = $2 RETURNING "
                        + USER_COLUMNS)
                .execute(Tuple.of(tenant, id, array(permissions)))
                .map(rows -> existing(rows, id))
                .mapEmpty());
  }

  @Override
  public Future<Void> replacePermissionSets(
      String tenant, String moduleId, List<PermissionSetRecord> sets) {
    StoreChange change = new StoreChange(StoreChange.Kind.PERMISSION_SETS, tenant, null, null);
    return notifying(
        change,
        conn ->
            conn.preparedQuery(
                    "DELETE FROM authtoken_permission_sets WHERE tenant = $1 AND module_id = $2")
                .execute(Tuple.of(tenant, moduleId))
                .compose(
                    rows ->
                        sets.isEmpty()
                            ? Future.succeededFuture()
                            : conn.preparedQuery(
                                    "INSERT INTO authtoken_permission_sets VALUES ($1, $2, $3, $4)")
                                .executeBatch(
                                    sets.stream()
                                        .map(
                                            s ->
                                                Tuple.of(
                                                    tenant,
                                                    moduleId,
                                                    s.permissionName(),
                                                    array(s.subPermissions())))
                                        .toList()))
                .mapEmpty());
  }

  @Override
  public Future<List<PermissionSetRecord>> permissionSets(String tenant) {
    return pool.preparedQuery(
            "SELECT module_id, permission_name, sub_permissions FROM authtoken_permission_sets "
                + "WHERE tenant = $1 ORDER BY module_id, permission_name")
        .execute(Tuple.of(tenant))
        .map(
            rows ->
                all(
                    rows,
                    r ->
                        new PermissionSetRecord(
                            r.getString(0),
                            r.getString(1),
                            Arrays.asList(r.getArrayOfStrings(2)))));
  }

  @Override
  public Future<Void> insertRefreshToken(RefreshTokenRecord t) {
    return sessions.insert(t);
  }

  @Override
  public Future<RefreshTokenRecord> findRefreshToken(String tenant, String tokenHash) {
    return pool.preparedQuery(
            "SELECT tenant, token_hash, user_id, session_id, expires_at, used "
                + "FROM authtoken_refresh_tokens WHERE tenant = $1 AND token_hash = $2")
        .execute(Tuple.of(tenant, tokenHash))
        .map(
            rows ->
                first(
                    rows,
                    r ->
                        new RefreshTokenRecord(
                            r.getString(0),
                            r.getString(1),
                            r.getString(2),
                            r.getString(3),
                            r.getOffsetDateTime(4).toInstant(),
                            r.getBoolean(5))));
  }

  @Override
  public Future<Rotation> rotateRefreshToken(
      String tenant, String usedHash, RefreshTokenRecord successor) {
    return sessions.rotate(tenant, usedHash, successor);
  }

  @Override
  public Future<Void> deleteRefreshTokens(String tenant, String userId) {
    return sessions.deleteOfUser(tenant, userId);
  }

  @Override
  public Future<List<String>> sessionsOf(String tenant, String userId) {
    return pool.preparedQuery(
            "SELECT DISTINCT session_id FROM authtoken_refresh_tokens"
                + " WHERE tenant = $1 AND user_id = $2")
        .execute(Tuple.of(tenant, userId))
        .map(
            rows ->
                StreamSupport.stream(rows.spliterator(), false).map(r -> r.getString(0)).toList());
  }

  @Override
  public Future<Void> revokeSession(RevokedSession s) {
    return sessions.revoke(s);
  }

  @Override
  public Future<List<RevokedSession>> revokeSessionsOf(
      String tenant, String userId, String alsoSession, Instant until) {
    return sessions.revokeOf(tenant, userId, alsoSession, until);
  }

  @Override
  public Future<List<RevokedSession>> revokedSessions(Instant now) {
    return pool.preparedQuery(
            "SELECT tenant, session_id, until FROM authtoken_revoked_sessions WHERE until > $1")
        .execute(Tuple.of(time(now)))
        .map(
            rows ->
                all(
                    rows,
                    r ->
                        new RevokedSession(
                            r.getString(0), r.getString(1), r.getOffsetDateTime(2).toInstant())));
  }

  @Override
  public Future<Void> purgeExpired(Instant now) {
    return pool.preparedQuery("DELETE FROM authtoken_refresh_tokens WHERE expires_at <= $1")
        .execute(Tuple.of(time(now)))
        .compose(
            rows ->
                pool.preparedQuery("DELETE FROM authtoken_revoked_sessions WHERE until <= $1")
                    .execute(Tuple.of(time(now))))
        .mapEmpty();
  }

  @Override
  public void changeHandler(Handler<StoreChange> handler) {
    changes.handler(handler);
  }

  @Override
  public Future<Void> close() {
    return changes.close().eventually(pool::close);
  }

  private <T> Future<T> notifying(StoreChange change, Function<SqlConnection, Future<T>> work) {
    return pool.withTransaction(
        conn -> work.apply(conn).compose(result -> PgChanges.notify(conn, change).map(result)));
  }

  private static StoreChange userChange(String tenant, String id) {
    return new StoreChange(StoreChange.Kind.USER, tenant, id, null);
  }

  private static Throwable duplicate(Throwable e, String id, String username) {
    if (e instanceof PgException pg && "23505".equals(pg.getSqlState())) {
      return "authtoken_users_pkey".equals(pg.getConstraint())
          ? ApiException.unprocessable("user id already exists: " + id)
          : ApiException.unprocessable("username already exists: " + username);
    }
    return e;
  }

  private static UserRecord existing(RowSet<Row> rows, String id) {
    UserRecord user = first(rows, PgAuthStore::user);
    if (user == null) {
      throw ApiException.notFound("user not found: " + id);
    }
    return user;
  }

  private static UserRecord user(Row r) {
    return new UserRecord(
        r.getString(0),
        r.getString(1),
        r.getString(2),
        r.getBoolean(3),
        r.getString(4),
        Arrays.asList(r.getArrayOfStrings(5)));
  }

  private static <T> T first(RowSet<Row> rows, Function<Row, T> mapper) {
    var it = rows.iterator();
    return it.hasNext() ? mapper.apply(it.next()) : null;
  }

  private static <T> List<T> all(RowSet<Row> rows, Function<Row, T> mapper) {
    List<T> list = new ArrayList<>(rows.size());
    rows.forEach(r -> list.add(mapper.apply(r)));
    return list;
  }

  private static String[] array(List<String> list) {
    return list.toArray(String[]::new);
  }

  static OffsetDateTime time(Instant instant) {
    return instant.atOffset(ZoneOffset.UTC);
  }
}
