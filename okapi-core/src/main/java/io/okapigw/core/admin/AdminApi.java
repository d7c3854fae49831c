package io.okapigw.core.admin;

import io.okapigw.core.http.Failures;
import io.okapigw.core.http.HttpError;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import java.util.List;

/**
 * The gateway's own API under {@code /_/}, assembled from its route groups ({@link AdminRoutes}):
 * registry (modules, tenants, enablement, interfaces, discovery, instance health, nodes), auth
 * cache, metrics, version and health. The operator's calls are refused first to any tenant but the
 * supertenant ({@link SupertenantOnly}); every request body is limited next; everything else under
 * {@code /_/} is 404; every failure is answered by {@link Failures}.
 */
public final class AdminApi {

  /**
   * Largest admin request body: 1 MiB, about ten times the largest real FOLIO descriptor we know
   * (mod-circulation's, 107,936 bytes). Larger bodies get 413 naming the limit. Bodies over a few
   * KiB are parsed, and descriptors checked and answers encoded, on worker threads, so even at the
   * limit an admin call does not hold up proxied requests on its event loop.
   */
  public static final long MAX_BODY_BYTES = 1024L * 1024;

  private AdminApi() {}

  /**
   * The admin API's router. Requests reach it through the proxy, routed and authorized as calls of
   * the okapi module (see {@link OkapiModule}, {@link InternalAdmin}). Its routes only read what
   * the groups hold, so one router serves every event loop.
   *
   * @param groups the route groups, mounted in this order
   */
  public static Router router(Vertx vertx, List<AdminRoutes> groups) {
    Router router = Router.router(vertx);
    router.route("/_/*").handler(new SupertenantOnly());
    router.route("/_/*").handler(new AdminBody(MAX_BODY_BYTES));
    groups.forEach(group -> group.mount(router));
    router
        .route("/_/*")
        .handler(
            ctx ->
                ctx.fail(
                    HttpError.notFound(
                        "no admin endpoint "
                            + ctx.request().method()
                            + " "
                            + ctx.request().path())));
    router.route().failureHandler(Failures::handle);
    // failures vert.x-web raises before any route (a path parameter such as %zz that does not
    // decode: 400) go to error handlers, not failure handlers; without one it logs a stack trace
    router.errorHandler(
        400, Failures.errorHandler(400, "malformed path (a %-escape that does" + " not decode?)"));
    router.errorHandler(500, Failures.errorHandler(500, "internal error"));
    return router;
  }
}
