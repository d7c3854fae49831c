package io.okapigw.core.proxy;

import io.okapigw.core.http.Failures;
import io.okapigw.core.http.HttpError;
import io.okapigw.core.server.RequestPaths;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;

/**
 * What one listener serves (its connection admitted the request): 400 for a path not in normal form
 * ({@link RequestPaths}) before anything looks at it, so that the path routed and authorized is the
 * path forwarded and the path the admin API's router sees; then CORS first for browser requests
 * (those with an {@code Origin}), {@code /_/invoke/tenant/...} as a call of the tenant it names,
 * and everything else through the proxy, the admin API included (it is the okapi module's
 * interface). A listener that must not serve the admin API answers 403 under {@code /_/}, except
 * the health check and {@code /_/invoke/tenant/...}.
 */
public final class RequestDispatcher implements Handler<HttpServerRequest> {

  private static final String HEALTH = "/_/proxy/health";

  private final ProxyHandler proxy;
  private final Router browser;
  private final boolean servesAdmin;

  /**
   * @param proxy serves every request that is not refused here
   * @param cors answers browsers' requests first
   * @param servesAdmin whether the listener serves the admin API ({@code /_/})
   */
  public RequestDispatcher(Vertx vertx, ProxyHandler proxy, CorsPolicy cors, boolean servesAdmin) {
    this.proxy = proxy;
    this.servesAdmin = servesAdmin;
    this.browser = Router.router(vertx);
    // vert.x-web only for browser requests; the rest skip its route matching
    browser.route().handler(cors::handle).handler(ctx -> route(ctx.request()));
    // vert.x-web's CorsHandler fails an Origin that is not an origin ("https://a b") with 403
    // and an exception of its own, which Failures would take for an internal error (500)
    browser.errorHandler(
        403,
        ctx ->
            Failures.respond(
                ctx.request(),
                new HttpError(
                    403,
                    "CORS: origin refused"
                        + (ctx.failure() == null || ctx.failure().getMessage() == null
                            ? ""
                            : " (" + ctx.failure().getMessage() + ")"))));
  }

  @Override
  public void handle(HttpServerRequest req) {
    String notNormal = RequestPaths.problem(req.path());
    if (notNormal != null) {
      Failures.respond(req, HttpError.badRequest(notNormal));
    } else if (!servesAdmin && refused(req.path())) {
      Failures.respond(
          req,
          new HttpError(
              403,
              "the admin API is not served on this"
                  + " listener (admin.public=false); use the admin listener"));
    } else if (req.headers().contains(CorsPolicy.ORIGIN)) {
      browser.handle(req);
    } else {
      route(req);
    }
  }

  private void route(HttpServerRequest req) {
    InvokePath.parse(req.path())
        .ifPresentOrElse(invoke -> proxy.invoke(req, invoke), () -> proxy.handle(req));
  }

  private static boolean refused(String path) {
    return path.startsWith("/_/") && !path.equals(HEALTH) && InvokePath.parse(path).isEmpty();
  }
}
