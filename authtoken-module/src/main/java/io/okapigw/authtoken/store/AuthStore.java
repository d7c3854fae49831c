package io.okapigw.authtoken.store;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import java.time.Instant;
import java.util.List;

/**
 * Where users, permissions, permission sets, refresh tokens and revoked sessions persist. Two
 * implementations pass the same contract tests: an embedded JSON store ({@code store.json}) and
 * PostgreSQL ({@code store.pg}); the module's wiring chooses one, this interface knows neither. A
 * write's future succeeds only once the write is durable. Client mistakes fail with {@link
 * io.okapigw.authtoken.http.ApiException} (404 unknown user, 422 duplicate id or username).
 */
public interface AuthStore {

  /**
   * @param user a new user @return done; 422 if its id or username is taken in its tenant
   */
  Future<Void> insertUser(UserRecord user);

  /**
   * @param tenant tenant id
   * @param id user id
   * @param update fields to change
   * @return the user after the change; 404 if unknown, 422 if the new username is taken
   */
  Future<UserRecord> updateUser(String tenant, String id, UserUpdate update);

  /**
   * @param tenant tenant id @param id user id @return the user, or {@code null}
   */
  Future<UserRecord> findUser(String tenant, String id);

  /**
   * @param tenant tenant id @param username login name @return the user, or {@code null}
   */
  Future<UserRecord> findUserByUsername(String tenant, String username);

  /**
   * @param tenant tenant id
   * @param id user id
   * @param permissions the user's new permission names (replacing the old)
   * @return done; 404 if the user is unknown
   */
  Future<Void> setPermissions(String tenant, String id, List<String> permissions);

  /**
   * @param tenant tenant id
   * @param moduleId module id
   * @param sets the module's permission sets, replacing those it posted before
   * @return done
   */
  Future<Void> replacePermissionSets(
      String tenant, String moduleId, List<PermissionSetRecord> sets);

  /**
   * @param tenant tenant id @return every module's permission sets for the tenant
   */
  Future<List<PermissionSetRecord>> permissionSets(String tenant);

  /**
   * @param token a new refresh token @return done
   */
  Future<Void> insertRefreshToken(RefreshTokenRecord token);

  /**
   * @param tenant tenant id @param tokenHash hex SHA-256 @return the token, or {@code null}
   */
  Future<RefreshTokenRecord> findRefreshToken(String tenant, String tokenHash);

  /**
   * Exchanges a refresh token for its successor, atomically with every other change to the tokens
   * of its session (one token family): of concurrent exchanges of one token exactly one succeeds,
   * and an exchange racing a revocation of the session ({@link #revokeSession}, {@link
   * #revokeSessionsOf}, {@link #deleteRefreshTokens}) either comes first, and its successor is
   * deleted with the rest, or finds the token gone: a revoked session never gains a token.
   *
   * @param tenant tenant id
   * @param usedHash hex SHA-256 of the token presented
   * @param successor the new token, of the same user and session
   * @return what happened; nothing changed unless {@link Rotation#ROTATED}
   */
  Future<Rotation> rotateRefreshToken(String tenant, String usedHash, RefreshTokenRecord successor);

  /** What {@link #rotateRefreshToken} did. */
  enum Rotation {
    /** The token presented is now used, and its successor is stored. */
    ROTATED,
    /** The token presented was used before. */
    REUSED,
    /** No such token: never issued, expired and purged, or its session ended. */
    GONE
  }

  /**
   * Deletes every refresh token of a user, atomically with respect to each of the user's sessions
   * (see {@link #rotateRefreshToken}).
   *
   * @param tenant tenant id
   * @param userId user id
   * @return done: the user's refresh tokens are gone
   */
  Future<Void> deleteRefreshTokens(String tenant, String userId);

  /**
   * The sessions a user may still use: those of the user's refresh tokens, used or not.
   *
   * @param tenant tenant id
   * @param userId user id
   * @return the session ids, each once (empty if none)
   */
  Future<List<String>> sessionsOf(String tenant, String userId);

  /**
   * Ends a session, atomically with respect to its refresh tokens' exchanges (see {@link
   * #rotateRefreshToken}): deletes its refresh tokens and records it as revoked.
   *
   * @param session the session and until when it stays revoked
   * @return done
   */
  Future<Void> revokeSession(RevokedSession session);

  /**
   * Ends every session of a user (each with a refresh token, and {@code alsoSession}) as {@link
   * #revokeSession} ends one, all in one step. A session a login starts meanwhile is not among
   * them.
   *
   * @param tenant tenant id
   * @param userId user id
   * @param alsoSession a session to end too (the caller's own), or {@code null}
   * @param until until when they stay revoked
   * @return the sessions ended
   */
  Future<List<RevokedSession>> revokeSessionsOf(
      String tenant, String userId, String alsoSession, Instant until);

  /**
   * @param now current time @return sessions revoked until after {@code now}
   */
  Future<List<RevokedSession>> revokedSessions(Instant now);

  /**
   * @param now current time @return done: expired refresh tokens and revocations are gone
   */
  Future<Void> purgeExpired(Instant now);

  /**
   * @param handler called (on a Vert.x thread) when another process changed data this process may
   *     have cached; the JSON store, owned by one process, never calls it
   */
  void changeHandler(Handler<StoreChange> handler);

  /**
   * @return done: files or connections closed
   */
  Future<Void> close();
}
