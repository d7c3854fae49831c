package io.okapigw.authtoken.login;

import io.okapigw.authtoken.http.JsonBody;
import io.okapigw.authtoken.http.OkapiHeaders;
import io.okapigw.authtoken.password.PasswordHasher;
import io.okapigw.authtoken.throttle.ClientAddresses;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;

/**
 * {@code POST /authn/login} and {@code POST /authn/refresh} with a JSON body (logout and the cookie
 * forms: {@code session.CookieSessionHandler}). Tokens travel in headers and bodies only, never in
 * URLs; answers carrying tokens are marked {@code Cache-Control: no-store}.
 */
public final class LoginHandler {
  private static final int MAX_USERNAME_LENGTH = 256;

  private final LoginService service;
  private final ClientAddresses clients;

  /**
   * @param service the login logic
   * @param clients the address a login comes from
   */
  public LoginHandler(LoginService service, ClientAddresses clients) {
    this.service = service;
    this.clients = clients;
  }

  /**
   * @param router router to add the routes to @param body body handler with a size limit
   */
  public void mount(Router router, BodyHandler body) {
    router.post("/authn/login").handler(body).handler(this::login);
    router.post("/authn/refresh").handler(body).handler(this::refresh);
  }

  private void login(RoutingContext ctx) {
    String tenant = OkapiHeaders.tenant(ctx.request().headers());
    JsonBody body = JsonBody.of(ctx);
    String username = body.requiredString("username", MAX_USERNAME_LENGTH);
    String password = body.requiredString("password", PasswordHasher.MAX_PASSWORD_LENGTH);
    service
        .login(tenant, username, password, clients.clientOf(ctx.request()))
        .onSuccess(session -> respond(ctx, session))
        .onFailure(ctx::fail);
  }

  private void refresh(RoutingContext ctx) {
    String tenant = OkapiHeaders.tenant(ctx.request().headers());
    String token = JsonBody.of(ctx).requiredString("refreshToken", 256);
    service.refresh(tenant, token).onSuccess(session -> respond(ctx, session)).onFailure(ctx::fail);
  }

  private static void respond(RoutingContext ctx, Session session) {
    ctx.response()
        .setStatusCode(201)
        .putHeader(OkapiHeaders.TOKEN, session.access().token())
        .putHeader(HttpHeaders.CACHE_CONTROL, "no-store")
        .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
        .end(session.toJson().encode());
  }
}
