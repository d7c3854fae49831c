package io.okapigw.core.admin;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.okapigw.cache.AuthCache;
import io.okapigw.core.cluster.ClusterBus;
import io.okapigw.core.cluster.ClusterInvalidator;
import io.okapigw.core.http.Failures;
import io.okapigw.core.http.HttpError;
import io.okapigw.core.install.Installer;
import io.okapigw.core.registry.Registry;
import io.okapigw.core.timer.TimerService;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;

/**
 * The gateway's own API under {@code /_/}: registry (modules, tenants, enablement, interfaces,
 * discovery, instance health, nodes), auth cache, metrics, version and health. Everything else
 * under {@code /_/} is 404.
 */
public final class AdminApi {

  /**
   * Largest admin request body: 1 MiB, about ten times the largest real FOLIO descriptor we know
   * (mod-circulation's, 107,936 bytes). Larger bodies get 413 naming the limit. Bodies over a few
   * KiB are parsed, and descriptors checked and answers encoded, on worker threads, so even at the
   * limit an admin call does not hold up proxied requests on its event loop.
   */
  public static final long MAX_BODY_BYTES = 1024L * 1024;

  private final Registry registry;
  private final String version;
  private final AuthCacheApi authCache;
  private final ClusterBus bus;
  private final PrometheusMeterRegistry metrics;
  private final AdminExposure exposure;
  private final TimerService timers;
  private final Installer installer;

  /**
   * @param registry the registry the admin API works on
   * @param version the gateway's version
   * @param cache the node's auth cache
   * @param invalidator applies an auth cache invalidation (cluster-wide where clustered)
   * @param metrics the node's meters, served at {@code /_/metrics}
   * @param bus the cluster, for the health answer
   * @param exposure whether the admin API is protected, for the health answer
   * @param timers modules' timers, for the timer API
   * @param installer enables, upgrades and disables tenants' modules
   */
  public AdminApi(
      Registry registry,
      String version,
      AuthCache cache,
      ClusterInvalidator invalidator,
      PrometheusMeterRegistry metrics,
      ClusterBus bus,
      AdminExposure exposure,
      TimerService timers,
      Installer installer) {
    this.registry = registry;
    this.version = version;
    this.authCache = new AuthCacheApi(cache, invalidator);
    this.bus = bus;
    this.metrics = metrics;
    this.exposure = exposure;
    this.timers = timers;
    this.installer = installer;
  }

  /**
   * Adds the admin routes to {@code router}. Requests reach it through the proxy, routed and
   * authorized as calls of the okapi module (see {@link OkapiModule}).
   */
  public void mount(Router router) {
    router.route("/_/*").handler(new AdminBody(MAX_BODY_BYTES));
    new ModulesApi(registry).mount(router);
    new TenantsApi(registry, installer).mount(router);
    new DiscoveryApi(registry, bus).mount(router);
    new TimersApi(timers).mount(router);
    authCache.mount(router);
    router
        .get("/_/metrics")
        .handler(
            ctx ->
                ctx.response()
                    .putHeader("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
                    .end(metrics.scrape()));
    router
        .get("/_/version")
        .handler(ctx -> ctx.response().putHeader("Content-Type", "text/plain").end(version));
    router
        .get("/_/proxy/health")
        .handler(
            ctx ->
                ctx.response()
                    .putHeader("Content-Type", "application/json")
                    .end(
                        new JsonObject()
                            .put("status", "UP")
                            .put("version", version)
                            .put("node", bus.nodeId())
                            .put("members", bus.members().size())
                            .put("adminApi", exposure.toJson())
                            .encode()));
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
    router.route("/_/*").failureHandler(Failures::handle);
    // failures vert.x-web raises before any route (a path parameter such as %zz that does not
    // decode: 400) go to error handlers, not failure handlers; without one it logs a stack trace
    router.errorHandler(
        400, Failures.errorHandler(400, "malformed path (a %-escape that does" + " not decode?)"));
    router.errorHandler(500, Failures.errorHandler(500, "internal error"));
  }
}
