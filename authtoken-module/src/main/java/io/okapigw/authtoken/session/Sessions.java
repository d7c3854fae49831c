package io.okapigw.authtoken.session;

import io.okapigw.authtoken.http.ApiException;
import io.okapigw.authtoken.login.LoginService;
import io.okapigw.authtoken.login.LoginService.LoginContext;
import io.okapigw.authtoken.token.TokenClaims;
import io.vertx.core.Future;

/**
 * The logouts of cookie sessions, as FOLIO's mod-login offers them: by the refresh token of the
 * {@code folioRefreshToken} cookie (the session it belongs to), and of every session of the user
 * ({@code /authn/logout-all}). Unlike FOLIO's mod-authtoken, which only revokes refresh tokens, a
 * logout here also refuses the sessions' access and module tokens from then on, and the gateway
 * drops the user's cached grants before the logout answers.
 */
public final class Sessions {

  private final LoginContext c;
  private final LoginService login;

  /**
   * @param context what logins work with
   * @param login revokes a session
   */
  public Sessions(LoginContext context, LoginService login) {
    this.c = context;
    this.login = login;
  }

  /**
   * Ends the session a refresh token belongs to, whether the token was used already or not.
   *
   * @param tenant tenant of the request
   * @param refreshToken the refresh token
   * @return done; 401 if the module never issued it (or forgot it: expired and purged, or its
   *     session ended already)
   */
  public Future<Void> logout(String tenant, String refreshToken) {
    return c.store()
        .findRefreshToken(tenant, LoginService.sha256(refreshToken))
        .compose(
            token -> {
              if (token == null) {
                return Future.failedFuture(ApiException.unauthorized("invalid refresh token"));
              }
              return login
                  .revokeSession(tenant, token.sessionId())
                  .compose(v -> c.gateway().invalidateUser(tenant, token.userId()));
            });
  }

  /**
   * Ends every session of the access token's user: each session with a refresh token, and the
   * token's own.
   *
   * @param tenant tenant of the request
   * @param accessToken the caller's access token
   * @return done; 401 for a bad token or one without user, 403 for another tenant's
   */
  public Future<Void> logoutAll(String tenant, String accessToken) {
    TokenClaims claims = c.tokens().verify(accessToken);
    if (!claims.tenant().equals(tenant)) {
      throw ApiException.forbidden("token is for another tenant than " + tenant);
    }
    if (claims.userId() == null) {
      throw ApiException.unauthorized("token has no user to log out");
    }
    String userId = claims.userId();
    return login
        .revokeSessionsOf(tenant, userId, claims.sessionId())
        .compose(v -> c.gateway().invalidateUser(tenant, userId));
  }
}
