package io.okapigw.authtoken.session;

import io.okapigw.authtoken.http.ApiException;
import io.okapigw.authtoken.http.JsonBody;
import io.okapigw.authtoken.http.OkapiHeaders;
import io.okapigw.authtoken.login.LoginHandler;
import io.okapigw.authtoken.login.LoginService;
import io.okapigw.authtoken.login.Session;
import io.okapigw.authtoken.password.PasswordHasher;
import io.okapigw.authtoken.throttle.ClientAddresses;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.time.Clock;
import java.util.List;

/**
 * Browser sessions in cookies, in the shapes of FOLIO's mod-login (what Stripes calls):
 *
 * <ul>
 *   <li>{@code POST /authn/login-with-expiry} {@code {"username","password"}}: 201, the tokens in
 *       {@code folioAccessToken} / {@code folioRefreshToken} cookies ({@link SessionCookies}), body
 *       {@code {"accessTokenExpiration","refreshTokenExpiration"}};
 *   <li>{@code POST /authn/refresh} without a body: the refresh token from its cookie, rotated (a
 *       used one ends the session); with a JSON body it is {@link LoginHandler}'s refresh;
 *   <li>{@code POST /authn/logout}: ends the session of the refresh-token cookie, else of the
 *       access token; {@code POST /authn/logout-all}: every session of the access token's user.
 *       Both answer 204 with the cookies expired.
 * </ul>
 *
 * Refusals answer as mod-login does ({@link FolioErrors}); nothing else changes on a refusal.
 */
public final class CookieSessionHandler {

  private final LoginService login;
  private final Sessions sessions;
  private final ClientAddresses clients;
  private final SessionCookies cookies;

  /**
   * @param login logins and refreshes
   * @param sessions logouts
   * @param clients the address a login comes from
   * @param sameSite the cookies' {@code SameSite}
   * @param clock for the cookies' {@code Max-Age}
   */
  public CookieSessionHandler(
      LoginService login,
      Sessions sessions,
      ClientAddresses clients,
      SameSite sameSite,
      Clock clock) {
    this.login = login;
    this.sessions = sessions;
    this.clients = clients;
    this.cookies = new SessionCookies(sameSite, clock);
  }

  /**
   * Mounts the routes; {@code /authn/refresh} must come before {@link LoginHandler}'s.
   *
   * @param router router to add the routes to
   * @param body body handler with a size limit
   */
  public void mount(Router router, BodyHandler body) {
    router.post("/authn/login-with-expiry").handler(body).handler(this::login);
    router.post("/authn/refresh").handler(body).handler(this::refresh);
    router.post("/authn/logout").handler(this::logout);
    router.post("/authn/logout-all").handler(this::logoutAll);
  }

  private void login(RoutingContext ctx) {
    String tenant = OkapiHeaders.tenant(ctx.request().headers());
    JsonBody body = JsonBody.of(ctx);
    String username = body.requiredString("username", JsonBody.MAX_NAME_LENGTH);
    String password = body.requiredString("password", PasswordHasher.MAX_PASSWORD_LENGTH);
    login
        .login(tenant, username, password, clients.clientOf(ctx.request()))
        .onSuccess(session -> issue(ctx, session))
        .onFailure(e -> refused(ctx, e, FolioErrors.LOGIN_FAILED));
  }

  private void refresh(RoutingContext ctx) {
    if (ctx.body().length() > 0) {
      ctx.next(); // {"refreshToken": ...}: the JSON form
      return;
    }
    MultiMap headers = ctx.request().headers();
    String tenant = OkapiHeaders.tenant(headers);
    String token = OkapiHeaders.cookie(headers, SessionCookies.REFRESH);
    if (token == null) {
      FolioErrors.NO_REFRESH_COOKIE.respond(ctx);
      return;
    }
    login
        .refresh(tenant, token)
        .onSuccess(session -> issue(ctx, session))
        .onFailure(e -> refused(ctx, e, FolioErrors.REFRESH_REFUSED));
  }

  private void logout(RoutingContext ctx) {
    MultiMap headers = ctx.request().headers();
    String tenant = OkapiHeaders.tenant(headers);
    String refreshToken = OkapiHeaders.cookie(headers, SessionCookies.REFRESH);
    if (refreshToken != null) {
      sessions
          .logout(tenant, refreshToken)
          .onSuccess(v -> ended(ctx))
          .onFailure(e -> refused(ctx, e, FolioErrors.LOGOUT_REFUSED));
      return;
    }
    String token = OkapiHeaders.token(headers);
    if (token == null) {
      throw ApiException.unauthorized(
          "missing token: send X-Okapi-Token or the " + SessionCookies.REFRESH + " cookie");
    }
    login.logout(tenant, token).onSuccess(v -> ended(ctx)).onFailure(ctx::fail);
  }

  private void logoutAll(RoutingContext ctx) {
    MultiMap headers = ctx.request().headers();
    String tenant = OkapiHeaders.tenant(headers);
    String token = OkapiHeaders.token(headers);
    if (token == null) {
      FolioErrors.LOGOUT_REFUSED.respond(ctx);
      return;
    }
    Future.<Void>succeededFuture()
        .compose(v -> sessions.logoutAll(tenant, token))
        .onSuccess(v -> ended(ctx))
        .onFailure(e -> refused(ctx, e, FolioErrors.LOGOUT_REFUSED));
  }

  private void issue(RoutingContext ctx, Session session) {
    setCookies(ctx, cookies.issue(session, ctx.request().getHeader(OkapiHeaders.URL)))
        .setStatusCode(201)
        .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
        .end(SessionCookies.expirations(session).encode());
  }

  private void ended(RoutingContext ctx) {
    setCookies(ctx, cookies.expire(ctx.request().getHeader(OkapiHeaders.URL)))
        .setStatusCode(204)
        .end();
  }

  private static HttpServerResponse setCookies(RoutingContext ctx, List<String> values) {
    HttpServerResponse response = ctx.response().putHeader(HttpHeaders.CACHE_CONTROL, "no-store");
    values.forEach(v -> response.headers().add(HttpHeaders.SET_COOKIE, v));
    return response;
  }

  /** A refusal (401, 403, 422) in mod-login's shape; anything else to the failure handler. */
  private static void refused(RoutingContext ctx, Throwable e, FolioErrors answer) {
    if (e instanceof ApiException api
        && (api.status() == 401 || api.status() == 403 || api.status() == 422)) {
      answer.respond(ctx);
    } else {
      ctx.fail(e);
    }
  }
}
