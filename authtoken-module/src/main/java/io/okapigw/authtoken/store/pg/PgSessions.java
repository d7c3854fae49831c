package io.okapigw.authtoken.store.pg;

import io.okapigw.authtoken.store.AuthStore.Rotation;
import io.okapigw.authtoken.store.RefreshTokenRecord;
import io.okapigw.authtoken.store.RevokedSession;
import io.okapigw.authtoken.store.StoreChange;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The refresh tokens of a session (one token family) change under one lock per session: every
 * transaction that exchanges, deletes or revokes a session's tokens first takes the session's
 * transaction-scoped advisory lock, so that they run one after another. Without it an exchange
 * (mark the presented token used, insert its successor) racing a logout (delete the session's
 * tokens) could insert its successor after the logout's delete had looked, under READ COMMITTED,
 * and the session lived on through it. Locks of several sessions are taken in the order of their
 * keys, so two transactions never wait on each other.
 */
final class PgSessions {
  /**
   * The class id of the locks ({@code pg_advisory_xact_lock(int, int)}; the schema lock uses the
   * single-bigint form, a key space of its own).
   */
  private static final int LOCK_CLASS = 0x61757468;

  private final Pool pool;

  PgSessions(Pool pool) {
    this.pool = pool;
  }

  Future<Void> insert(RefreshTokenRecord t) {
    return insert(pool, t);
  }

  Future<Rotation> rotate(String tenant, String usedHash, RefreshTokenRecord successor) {
    String session = successor.sessionId();
    return pool.withTransaction(
        conn ->
            lock(conn, tenant, List.of(session))
                .compose(
                    v ->
                        conn.preparedQuery(
                                "UPDATE authtoken_refresh_tokens SET used = true WHERE tenant = $1"
                                    + " AND token_hash = $2 AND session_id = $3 AND NOT used")
                            .execute(Tuple.of(tenant, usedHash, session)))
                .compose(
                    rows ->
                        rows.rowCount() == 1
                            ? insert(conn, successor).map(Rotation.ROTATED)
                            : stateOf(conn, tenant, usedHash)));
  }

  /** Why a token could not be exchanged: used before, or not there. */
  private static Future<Rotation> stateOf(SqlConnection conn, String tenant, String hash) {
    return conn.preparedQuery(
            "SELECT used FROM authtoken_refresh_tokens WHERE tenant = $1 AND token_hash = $2")
        .execute(Tuple.of(tenant, hash))
        .map(
            rows -> {
              var it = rows.iterator();
              return it.hasNext() && it.next().getBoolean(0) ? Rotation.REUSED : Rotation.GONE;
            });
  }

  Future<Void> deleteOfUser(String tenant, String userId) {
    return pool.withTransaction(
        conn ->
            lockSessionsOf(conn, tenant, userId, null)
                .compose(sessions -> delete(conn, tenant, sessions)));
  }

  Future<Void> revoke(RevokedSession s) {
    return pool.withTransaction(
        conn ->
            lock(conn, s.tenant(), List.of(s.sessionId()))
                .compose(v -> delete(conn, s.tenant(), List.of(s.sessionId())))
                .compose(v -> record(conn, s)));
  }

  Future<List<RevokedSession>> revokeOf(
      String tenant, String userId, String alsoSession, Instant until) {
    return pool.withTransaction(
        conn ->
            lockSessionsOf(conn, tenant, userId, alsoSession)
                .compose(
                    sessions -> {
                      List<RevokedSession> revoked =
                          sessions.stream().map(s -> new RevokedSession(tenant, s, until)).toList();
                      Future<Void> chain = delete(conn, tenant, sessions);
                      for (RevokedSession s : revoked) {
                        chain = chain.compose(v -> record(conn, s));
                      }
                      return chain.map(revoked);
                    }));
  }

  /** The user's sessions (those with refresh tokens) and {@code also}, each locked. */
  private static Future<List<String>> lockSessionsOf(
      SqlConnection conn, String tenant, String userId, String also) {
    return conn.preparedQuery(
            "SELECT DISTINCT session_id FROM authtoken_refresh_tokens"
                + " WHERE tenant = $1 AND user_id = $2")
        .execute(Tuple.of(tenant, userId))
        .compose(
            rows -> {
              Set<String> sessions = new LinkedHashSet<>();
              rows.forEach(r -> sessions.add(r.getString(0)));
              if (also != null) {
                sessions.add(also);
              }
              List<String> list = List.copyOf(sessions);
              return lock(conn, tenant, list).map(list);
            });
  }

  /** Takes the locks of the sessions, in the order of their keys, one at a time. */
  private static Future<Void> lock(SqlConnection conn, String tenant, Collection<String> sessions) {
    Future<Void> chain = Future.succeededFuture();
    for (int key : sessions.stream().mapToInt(s -> key(tenant, s)).sorted().distinct().toArray()) {
      chain =
          chain.compose(
              v ->
                  conn.preparedQuery("SELECT pg_advisory_xact_lock($1, $2)")
                      .execute(Tuple.of(LOCK_CLASS, key))
                      .mapEmpty());
    }
    return chain;
  }

  /**
   * The lock key of a session: the same in every instance ({@link String#hashCode} is specified);
   * two sessions sharing one only wait for each other.
   */
  private static int key(String tenant, String sessionId) {
    return (tenant + '\n' + sessionId).hashCode();
  }

  private static Future<Void> delete(SqlConnection conn, String tenant, List<String> sessions) {
    return conn.preparedQuery(
            "DELETE FROM authtoken_refresh_tokens WHERE tenant = $1 AND session_id = ANY($2)")
        .execute(Tuple.tuple().addString(tenant).addArrayOfString(sessions.toArray(String[]::new)))
        .mapEmpty();
  }

  /** Records the revocation and announces it to the other instances (on commit). */
  private static Future<Void> record(SqlConnection conn, RevokedSession s) {
    return conn.preparedQuery(
            "INSERT INTO authtoken_revoked_sessions VALUES ($1, $2, $3) ON CONFLICT (tenant,"
                + " session_id) DO UPDATE SET until = GREATEST(EXCLUDED.until,"
                + " authtoken_revoked_sessions.until)")
        .execute(Tuple.of(s.tenant(), s.sessionId(), PgAuthStore.time(s.until())))
        .compose(
            rows ->
                PgChanges.notify(
                    conn,
                    new StoreChange(
                        StoreChange.Kind.SESSION_REVOKED, s.tenant(), s.sessionId(), s.until())));
  }

  private static Future<Void> insert(SqlClient client, RefreshTokenRecord t) {
    return client
        .preparedQuery("INSERT INTO authtoken_refresh_tokens VALUES ($1, $2, $3, $4, $5, $6)")
        .execute(
            Tuple.of(
                t.tenant(),
                t.tokenHash(),
                t.userId(),
                t.sessionId(),
                PgAuthStore.time(t.expiresAt()),
                t.used()))
        .mapEmpty();
  }
}
