package io.okapigw.authtoken.login;

import io.okapigw.authtoken.gateway.GatewayNotifier;
import io.okapigw.authtoken.http.ApiException;
import io.okapigw.authtoken.password.PasswordHasher;
import io.okapigw.authtoken.store.AuthStore;
import io.okapigw.authtoken.store.RefreshTokenRecord;
import io.okapigw.authtoken.store.RevokedSession;
import io.okapigw.authtoken.store.UserRecord;
import io.okapigw.authtoken.store.UserUpdate;
import io.okapigw.authtoken.throttle.LoginThrottle;
import io.okapigw.authtoken.token.RevokedSessions;
import io.okapigw.authtoken.token.TokenClaims;
import io.okapigw.authtoken.token.TokenOptions;
import io.okapigw.authtoken.token.TokenService;
import io.vertx.core.Future;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logins, refresh-token rotation and logout. A login starts a session ({@code sid}); its refresh
 * tokens are single use: exchanging one yields a new access and refresh token of the same session;
 * presenting a used one again revokes every refresh token of the user and the session itself.
 * Logout revokes the session: its refresh tokens are deleted and its access and module tokens
 * refused until they expire.
 */
public final class LoginService {
  private static final Logger LOG = LoggerFactory.getLogger(LoginService.class);
  private static final String WRONG_CREDENTIALS = "wrong username or password";
  private static final String INVALID_REFRESH_TOKEN = "invalid refresh token";

  private final LoginContext c;
  private final LoginThrottle throttle;
  private final SecureRandom random = new SecureRandom();

  /**
   * @param context what the service works with
   * @param throttle what every login passes before its password is checked
   */
  public LoginService(LoginContext context, LoginThrottle throttle) {
    this.c = context;
    this.throttle = throttle;
  }

  /**
   * A login from an unknown client: throttled by user name and the password check queue only.
   *
   * @see #login(String, String, String, String)
   */
  public Future<Session> login(String tenant, String username, String password) {
    return login(tenant, username, password, null);
  }

  /**
   * @param tenant tenant id
   * @param username login name
   * @param password password
   * @param client the address it comes from ({@link
   *     io.okapigw.authtoken.throttle.ClientAddresses}), or {@code null}
   * @return a new session; 422 {@value #WRONG_CREDENTIALS} for an unknown user or a wrong password;
   *     429 when throttled ({@link LoginThrottle})
   */
  public Future<Session> login(String tenant, String username, String password, String client) {
    return throttle
        .attempt(
            tenant,
            username,
            client,
            () -> checkLogin(tenant, username, password),
            LoginService::failureOf)
        .recover(
            e ->
                Future.failedFuture(
                    e instanceof UnknownUser ? ApiException.unprocessable(WRONG_CREDENTIALS) : e));
  }

  private static LoginThrottle.Failure failureOf(Throwable failure) {
    if (failure instanceof UnknownUser) {
      return LoginThrottle.Failure.UNKNOWN_USER;
    }
    return failure instanceof ApiException e
            && e.status() == 422
            && WRONG_CREDENTIALS.equals(e.getMessage())
        ? LoginThrottle.Failure.WRONG_PASSWORD
        : LoginThrottle.Failure.NONE;
  }

  /**
   * A user name that does not exist, for the throttle only: the client gets {@value
   * #WRONG_CREDENTIALS} as for a wrong password.
   */
  private static final class UnknownUser extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UnknownUser() {
      super(WRONG_CREDENTIALS, null, false, false);
    }
  }

  private Future<Session> checkLogin(String tenant, String username, String password) {
    return c.store()
        .findUserByUsername(tenant, username)
        .compose(
            user ->
                c.hasher()
                    .verify(password, user == null ? null : user.passwordHash())
                    .map(ok -> checkLogin(user, ok)))
        .compose(user -> rehashIfNeeded(user, password))
        .compose(user -> startSession(user, UUID.randomUUID().toString()));
  }

  /**
   * Exchanges a refresh token for new tokens of its session. The exchange is one step of the store
   * with respect to the session's revocation ({@link AuthStore#rotateRefreshToken}): a refresh
   * racing a logout either comes first, and the logout ends the new tokens too, or finds its token
   * gone (401).
   *
   * @param tenant tenant id
   * @param refreshToken an unused, unexpired refresh token
   * @return the session's new tokens; 401 if unknown, expired, of an ended session or reused (reuse
   *     revokes the user's refresh tokens and the session)
   */
  public Future<Session> refresh(String tenant, String refreshToken) {
    String hash = sha256(refreshToken);
    return c.store()
        .findRefreshToken(tenant, hash)
        .compose(this::usable)
        .compose(
            token -> c.store().findUser(tenant, token.userId()).compose(u -> rotate(token, u)));
  }

  private Future<RefreshTokenRecord> usable(RefreshTokenRecord token) {
    if (token == null) {
      return Future.failedFuture(ApiException.unauthorized(INVALID_REFRESH_TOKEN));
    }
    if (!token.expiresAt().isAfter(c.clock().instant())) {
      return Future.failedFuture(ApiException.unauthorized("refresh token expired"));
    }
    return token.used() ? reused(token) : Future.succeededFuture(token);
  }

  private Future<Session> rotate(RefreshTokenRecord token, UserRecord user) {
    if (user == null || !user.active()) {
      return Future.failedFuture(ApiException.unauthorized("user is not active"));
    }
    Issued next = issue(user, token.sessionId());
    return c.store()
        .rotateRefreshToken(token.tenant(), token.tokenHash(), next.record())
        .compose(
            rotation ->
                switch (rotation) {
                  case ROTATED -> Future.succeededFuture(next.session());
                  case REUSED -> reused(token);
                  case GONE ->
                      Future.failedFuture(ApiException.unauthorized(INVALID_REFRESH_TOKEN));
                });
  }

  /**
   * @param tenant tenant id of the request
   * @param accessToken the caller's token
   * @return done: the token's session is revoked and the gateway told; 401 on a bad token
   */
  public Future<Void> logout(String tenant, String accessToken) {
    TokenClaims claims = c.tokens().verify(accessToken);
    if (!claims.tenant().equals(tenant)) {
      throw ApiException.forbidden("token is for another tenant than " + tenant);
    }
    if (claims.sessionId() == null) {
      throw ApiException.unauthorized("token has no session to log out of");
    }
    return revokeSession(tenant, claims.sessionId())
        .compose(v -> c.gateway().invalidateUser(tenant, claims.userId()));
  }

  private UserRecord checkLogin(UserRecord user, boolean passwordMatches) {
    if (user == null) {
      throw new UnknownUser();
    }
    if (!passwordMatches) {
      throw ApiException.unprocessable(WRONG_CREDENTIALS);
    }
    if (!user.active()) {
      throw ApiException.unprocessable("user is not active");
    }
    return user;
  }

  /** Re-hashes with the current cost after a successful login; a failure only logs. */
  private Future<UserRecord> rehashIfNeeded(UserRecord user, String password) {
    if (!c.hasher().needsRehash(user.passwordHash())) {
      return Future.succeededFuture(user);
    }
    return c.hasher()
        .hash(password)
        .compose(
            hash ->
                c.store().updateUser(user.tenant(), user.id(), new UserUpdate(null, null, hash)))
        .map(user)
        .recover(
            e -> {
              LOG.warn("could not re-hash the password of user {}: {}", user.id(), e.getMessage());
              return Future.succeededFuture(user);
            });
  }

  private Future<Session> startSession(UserRecord user, String sessionId) {
    Issued issued = issue(user, sessionId);
    return c.store().insertRefreshToken(issued.record()).map(issued.session());
  }

  /** New tokens of a session, and the refresh token's record for the store. */
  private Issued issue(UserRecord user, String sessionId) {
    TokenService.IssuedToken access = c.tokens().issueAccess(user, sessionId);
    byte[] bytes = new byte[32];
    random.nextBytes(bytes);
    String refresh = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    Instant expires =
        Instant.ofEpochSecond(
            c.clock().instant().plus(c.lifetimes().refreshTtl()).getEpochSecond());
    RefreshTokenRecord record =
        new RefreshTokenRecord(
            user.tenant(), sha256(refresh), user.id(), sessionId, expires, false);
    return new Issued(new Session(access, refresh, expires), record);
  }

  private record Issued(Session session, RefreshTokenRecord record) {}

  private <T> Future<T> reused(RefreshTokenRecord token) {
    LOG.warn(
        "refresh token reused for user {} in tenant {}: revoking the user's refresh tokens",
        token.userId(),
        token.tenant());
    return c.store()
        .deleteRefreshTokens(token.tenant(), token.userId())
        .compose(v -> revokeSession(token.tenant(), token.sessionId()))
        .compose(v -> c.gateway().invalidateUser(token.tenant(), token.userId()))
        .compose(
            v ->
                Future.failedFuture(
                    ApiException.unauthorized(
                        "refresh token already used: all refresh tokens of the user are revoked")));
  }

  /**
   * Ends a session: its refresh tokens are deleted and its access and module tokens refused until
   * they have expired.
   *
   * @param tenant tenant id
   * @param sessionId the session ({@code sid})
   * @return done once the revocation is stored
   */
  public Future<Void> revokeSession(String tenant, String sessionId) {
    RevokedSession revoked =
        new RevokedSession(tenant, sessionId, c.clock().instant().plus(c.lifetimes().ttl()));
    return c.store().revokeSession(revoked).onSuccess(v -> c.revoked().add(revoked));
  }

  /**
   * Ends every session of a user at once: each with a refresh token, and {@code alsoSession}.
   *
   * @param tenant tenant id
   * @param userId the user
   * @param alsoSession a session to end too (the caller's own), or {@code null}
   * @return done once the revocations are stored
   */
  public Future<Void> revokeSessionsOf(String tenant, String userId, String alsoSession) {
    Instant until = c.clock().instant().plus(c.lifetimes().ttl());
    return c.store()
        .revokeSessionsOf(tenant, userId, alsoSession, until)
        .onSuccess(c.revoked()::addAll)
        .mapEmpty();
  }

  /**
   * @return the hex SHA-256 of a refresh token: what the store keeps of it
   */
  public static String sha256(String value) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(digest.digest(value.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * What the login service works with.
   *
   * @param store the store
   * @param hasher password hashing
   * @param tokens token issue and verification
   * @param revoked revoked sessions
   * @param gateway gateway invalidation
   * @param clock clock
   * @param lifetimes access and refresh token lifetimes
   */
  public record LoginContext(
      AuthStore store,
      PasswordHasher hasher,
      TokenService tokens,
      RevokedSessions revoked,
      GatewayNotifier gateway,
      Clock clock,
      TokenOptions lifetimes) {}
}
