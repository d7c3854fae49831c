package io.okapigw.authtoken.store.pg;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlConnection;
import java.util.List;

/** The PostgreSQL schema, created at start if missing (several instances may start at once). */
final class PgSchema {
  /** Serialises concurrent schema creation by several instances. */
  private static final long LOCK_ID = 7_283_640_211L;

  static final List<String> STATEMENTS =
      List.of(
          "SET LOCAL client_min_messages TO warning",
          "SELECT pg_advisory_xact_lock(" + LOCK_ID + ")",
          """
      CREATE TABLE IF NOT EXISTS authtoken_users (
        tenant text NOT NULL, id text NOT NULL, username text NOT NULL, active boolean NOT NULL,
        password_hash text, permissions text[] NOT NULL DEFAULT '{}',
        CONSTRAINT authtoken_users_pkey PRIMARY KEY (tenant, id),
        CONSTRAINT authtoken_users_username UNIQUE (tenant, username))""",
          """
      CREATE TABLE IF NOT EXISTS authtoken_permission_sets (
        tenant text NOT NULL, module_id text NOT NULL, permission_name text NOT NULL,
        sub_permissions text[] NOT NULL,
        PRIMARY KEY (tenant, module_id, permission_name))""",
          """
      CREATE TABLE IF NOT EXISTS authtoken_refresh_tokens (
        tenant text NOT NULL, token_hash text NOT NULL, user_id text NOT NULL, session_id text NOT NULL,
        expires_at timestamptz NOT NULL, used boolean NOT NULL DEFAULT false,
        PRIMARY KEY (tenant, token_hash))""",
          "CREATE INDEX IF NOT EXISTS authtoken_refresh_tokens_user ON authtoken_refresh_tokens (tenant, user_id)",
          """
      CREATE TABLE IF NOT EXISTS authtoken_revoked_sessions (
        tenant text NOT NULL, session_id text NOT NULL, until timestamptz NOT NULL,
        PRIMARY KEY (tenant, session_id))""");

  private PgSchema() {}

  static Future<Void> create(Pool pool) {
    return pool.withTransaction(conn -> run(conn, 0));
  }

  private static Future<Void> run(SqlConnection conn, int index) {
    if (index == STATEMENTS.size()) {
      return Future.succeededFuture();
    }
    return conn.query(STATEMENTS.get(index)).execute().compose(rows -> run(conn, index + 1));
  }
}
