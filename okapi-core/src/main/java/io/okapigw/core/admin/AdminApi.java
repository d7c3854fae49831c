package io.okapigw.core.admin;

import io.okapigw.core.http.Failures;
import io.okapigw.core.http.HttpError;
import io.okapigw.core.registry.Registry;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;

/**
 * The gateway's own API under {@code /_/}: registry (modules, tenants, enablement, discovery),
 * version and health. Everything else under {@code /_/} is 404.
 */
public final class AdminApi {

  /** Largest admin request body (a big module descriptor is a few hundred KB). */
  public static final long MAX_BODY_BYTES = 10L * 1024 * 1024;

  private final Registry registry;
  private final String version;

  public AdminApi(Registry registry, String version) {
    this.registry = registry;
    this.version = version;
  }

  /** Adds the admin routes to {@code router}; call before the proxy's catch-all route. */
  public void mount(Router router) {
    router.route("/_/*").handler(new AdminBody(MAX_BODY_BYTES));
    new ModulesApi(registry).mount(router);
    new TenantsApi(registry).mount(router);
    new DiscoveryApi(registry).mount(router);
    router.get("/_/version").handler(ctx -> ctx.response()
        .putHeader("Content-Type", "text/plain").end(version));
    router.get("/_/proxy/health").handler(ctx -> ctx.response()
        .putHeader("Content-Type", "application/json")
        .end(new JsonObject().put("status", "UP").put("version", version).encode()));
    router.route("/_/*").handler(ctx -> ctx.fail(HttpError.notFound(
        "no admin endpoint " + ctx.request().method() + " " + ctx.request().path())));
    router.route("/_/*").failureHandler(Failures::handle);
  }
}
