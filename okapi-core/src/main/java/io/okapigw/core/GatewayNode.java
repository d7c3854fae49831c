package io.okapigw.core;

import com.github.benmanes.caffeine.cache.Ticker;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.okapigw.cache.AuthCache;
import io.okapigw.core.admin.AdminExposure;
import io.okapigw.core.admin.ClusterNodes;
import io.okapigw.core.admin.OkapiModule;
import io.okapigw.core.cluster.ClusterBus;
import io.okapigw.core.cluster.ClusterInvalidator;
import io.okapigw.core.cluster.RegistrySync;
import io.okapigw.core.config.AdminOptions;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.health.HealthListener;
import io.okapigw.core.install.Installer;
import io.okapigw.core.registry.Registry;
import io.okapigw.core.registry.RegistryStore;
import io.okapigw.core.routing.RoutingTables;
import io.okapigw.core.storage.Storage;
import io.okapigw.core.tenantinit.SystemCalls;
import io.okapigw.core.tenantinit.TenantInit;
import io.okapigw.core.timer.Scheduler;
import io.okapigw.core.timer.TimerService;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.time.Clock;

/**
 * Wires a node: registry store, routing tables, auth cache, cluster messaging, and the HTTP
 * verticles sharing them. Single node or clustered depends only on the Vert.x it is given.
 */
final class GatewayNode implements Gateway {

  private final Vertx vertx;
  private final Shared shared;
  private final String deploymentId;
  private final Storage storage;
  private final HttpServer health;

  private GatewayNode(
      Vertx vertx, Shared shared, String deploymentId, Storage storage, HttpServer health) {
    this.vertx = vertx;
    this.shared = shared;
    this.deploymentId = deploymentId;
    this.storage = storage;
    this.health = health;
  }

  static Future<Gateway> start(
      Vertx vertx, GatewayOptions requested, Ticker ticker, Scheduler scheduler) {
    GatewayOptions options = withFreePorts(requested);
    String version = Version.current();
    return Storage.open(vertx, options.storage())
        .compose(
            storage ->
                wire(vertx, options, ticker, scheduler, storage)
                    .compose(shared -> serve(vertx, shared, version, storage))
                    .recover(e -> storage.close().transform(v -> Future.failedFuture(e))));
  }

  /** The registry ready, the HTTP verticles deployed, then Okapi's health listener, last. */
  private static Future<Gateway> serve(
      Vertx vertx, Shared shared, String version, Storage storage) {
    return shared
        .registry()
        .ensureSupertenant(OkapiModule.descriptor(version))
        .compose(v -> shared.tables().rebuild())
        .compose(v -> shared.timers().start())
        .compose(
            v ->
                vertx.deployVerticle(
                    () -> new HttpVerticle(shared),
                    new DeploymentOptions().setInstances(shared.options().instances())))
        .compose(
            id ->
                health(vertx, shared)
                    .map(
                        server -> {
                          shared.exposure().logState();
                          return (Gateway) new GatewayNode(vertx, shared, id, storage, server);
                        }));
  }

  /** Okapi's {@code healthPort} listener: {@code /readiness} answers once the node serves. */
  private static Future<HttpServer> health(Vertx vertx, Shared shared) {
    GatewayOptions options = shared.options();
    if (!options.node().hasHealthListener()) {
      return Future.succeededFuture();
    }
    return HealthListener.start(
        vertx, options.host(), options.node().healthPort(), shared.registry());
  }

  /**
   * Port 0 becomes a port free now, bound moments later by the HTTP verticles; another process may
   * take it in between. Binding port 0 and reading the bound port is not possible here: the port
   * must be known before the listeners start, because wiring the node, which the verticles need to
   * serve, already uses it: the node's URL (X-Okapi-Url) goes to tenant init and timer system
   * calls, is registered in the cluster's node map, and the exposure log names it. Only tests and
   * tools ask for port 0; a deployment names its ports.
   */
  private static GatewayOptions withFreePorts(GatewayOptions requested) {
    GatewayOptions options = requested.port() == 0 ? requested.withPort(freePort()) : requested;
    AdminOptions admin = options.admin();
    return admin.port() == 0 ? options.withAdmin(admin.withPort(freePort())) : options;
  }

  private static Future<Shared> wire(
      Vertx vertx, GatewayOptions options, Ticker ticker, Scheduler scheduler, Storage storage) {
    RegistryStore store = storage.registry();
    String okapiUrl = options.okapiUrlFor(options.port());
    Registry registry = new Registry(vertx, store);
    RoutingTables tables = new RoutingTables(store);
    PrometheusMeterRegistry metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    new JvmMemoryMetrics().bindTo(metrics);
    new JvmThreadMetrics().bindTo(metrics);
    new ProcessorMetrics().bindTo(metrics);
    AuthCache cache = AuthCache.create(options.authCache(), ticker, metrics);
    ClusterBus bus = ClusterBus.create(vertx, options.clusterAckTimeout());
    AdminExposure exposure =
        new AdminExposure(tables, options.admin(), options.host() + ":" + options.port());
    return Future.all(
            RegistrySync.start(tables, bus),
            ClusterInvalidator.start(vertx, cache, bus),
            TimerService.create(
                vertx,
                store,
                storage.timers(),
                bus,
                scheduler,
                new SystemCalls(vertx.createHttpClient(), store, okapiUrl),
                metrics),
            ClusterNodes.register(vertx, bus, okapiUrl, options.node().nodeName()))
        .map(
            started -> {
              RegistrySync sync = started.resultAt(0);
              ClusterInvalidator invalidator = started.resultAt(1);
              TimerService timers = started.resultAt(2);
              // routing first: a decision cached after the invalidation comes from the new modules
              registry.onChange(
                  change ->
                      sync.changed()
                          .compose(v -> invalidator.invalidateTenants(change.staleGrants()))
                          .onSuccess(v -> exposure.logState()));
              registry.onChange(change -> timers.changed());
              TenantInit init =
                  new TenantInit(vertx, store, okapiUrl, options.tenantInit(), Clock.systemUTC());
              Installer installer =
                  new Installer(
                      vertx, registry, store, init, bus, options.tenantInit().timeout().toMillis());
              return new Shared(
                  options,
                  okapiUrl,
                  registry,
                  tables,
                  Version.current(),
                  cache,
                  invalidator,
                  metrics,
                  bus,
                  exposure,
                  timers,
                  installer);
            });
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public int port() {
    return shared.options().port();
  }

  @Override
  public String okapiUrl() {
    return shared.okapiUrl();
  }

  @Override
  public int adminPort() {
    return shared.options().admin().port();
  }

  @Override
  public Registry registry() {
    return shared.registry();
  }

  @Override
  public String nodeId() {
    return shared.bus().nodeId();
  }

  @Override
  public Future<Void> stop() {
    Future<Void> healthClosed = health == null ? Future.succeededFuture() : health.close();
    return healthClosed
        .compose(v -> shared.timers().stop())
        .compose(v -> vertx.undeploy(deploymentId))
        .eventually(storage::close);
  }

  /** What every HTTP verticle of the node shares. */
  record Shared(
      GatewayOptions options,
      String okapiUrl,
      Registry registry,
      RoutingTables tables,
      String version,
      AuthCache cache,
      ClusterInvalidator invalidator,
      PrometheusMeterRegistry metrics,
      ClusterBus bus,
      AdminExposure exposure,
      TimerService timers,
      Installer installer) {}
}
