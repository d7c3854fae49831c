package io.okapigw.authtoken;

import io.okapigw.authtoken.filter.AuthFilterHandler;
import io.okapigw.authtoken.http.ApiException;
import io.okapigw.authtoken.http.FailureHandler;
import io.okapigw.authtoken.login.LoginHandler;
import io.okapigw.authtoken.perms.TenantPermissionsHandler;
import io.okapigw.authtoken.session.CookieSessionHandler;
import io.okapigw.authtoken.token.SigningKeyHandler;
import io.okapigw.authtoken.users.UserPermissionsHandler;
import io.okapigw.authtoken.users.UsersHandler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;

/** Puts the module's routes together: the auth filter first, then the module's own endpoints. */
final class AuthtokenRouter {
  /** Body limit of ordinary requests. */
  static final long BODY_LIMIT = 64 * 1024;

  /** Body limit of {@code /_/tenantPermissions}: a module's permission sets can be large. */
  static final long PERMISSION_SETS_BODY_LIMIT = 4 * 1024 * 1024;

  private AuthtokenRouter() {}

  static Router create(Vertx vertx, AuthtokenServices s) {
    Router router = Router.router(vertx);
    router.route().handler(new AuthFilterHandler(s.filter()));
    router
        .get("/admin/health")
        .handler(ctx -> ctx.response().putHeader(HttpHeaders.CONTENT_TYPE, "text/plain").end("OK"));
    BodyHandler body = BodyHandler.create(false).setBodyLimit(BODY_LIMIT);
    new CookieSessionHandler(
            s.login(), s.sessions(), s.clients(), s.options().cookieSameSite(), s.clock())
        .mount(router, body);
    new LoginHandler(s.login(), s.clients()).mount(router, body);
    new UsersHandler(s.users(), s.operators()).mount(router, body);
    new UserPermissionsHandler(s.users(), s.permissionSets(), s.operators()).mount(router, body);
    new TenantPermissionsHandler(s.store(), s.permissionSets(), s.gateway())
        .mount(router, BodyHandler.create(false).setBodyLimit(PERMISSION_SETS_BODY_LIMIT));
    new SigningKeyHandler(s.signingKey(), s.gateway()).mount(router);
    router.route().failureHandler(new FailureHandler());
    router.errorHandler(
        404,
        ctx ->
            plain(
                ctx,
                404,
                "no such endpoint: " + ctx.request().method() + " " + ctx.request().path()));
    router.errorHandler(
        405, ctx -> plain(ctx, 405, "method not allowed: " + ctx.request().method()));
    return router;
  }

  private static void plain(RoutingContext ctx, int status, String message) {
    FailureHandler.respond(ctx, new ApiException(status, message));
  }
}
