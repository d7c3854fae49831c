package io.okapigw.core;

import com.github.benmanes.caffeine.cache.Ticker;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.okapigw.cache.AuthCache;
import io.okapigw.core.admin.AdminApi;
import io.okapigw.core.admin.AdminExposure;
import io.okapigw.core.admin.AdminOptions;
import io.okapigw.core.admin.AdminRoutes;
import io.okapigw.core.admin.InternalAdmin;
import io.okapigw.core.admin.OkapiModule;
import io.okapigw.core.auth.AuthBreakers;
import io.okapigw.core.auth.AuthFilterClient;
import io.okapigw.core.auth.AuthModuleCalls;
import io.okapigw.core.auth.CachingAuthStage;
import io.okapigw.core.auth.ColdAuthModules;
import io.okapigw.core.auth.ConfirmedTokens;
import io.okapigw.core.bulkhead.TenantBulkhead;
import io.okapigw.core.callback.CallBacks;
import io.okapigw.core.cluster.ClusterBus;
import io.okapigw.core.cluster.ClusterInvalidator;
import io.okapigw.core.cluster.ClusterNodes;
import io.okapigw.core.cluster.ClusterView;
import io.okapigw.core.cluster.RegistrySync;
import io.okapigw.core.config.AuthParallel;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.deployment.Deployments;
import io.okapigw.core.deployment.Environment;
import io.okapigw.core.deployment.NodeDeployer;
import io.okapigw.core.eureka.EurekaAuthStage;
import io.okapigw.core.eureka.EurekaCalls;
import io.okapigw.core.eureka.EurekaOptions;
import io.okapigw.core.eureka.ServiceTokens;
import io.okapigw.core.eureka.Timing;
import io.okapigw.core.eureka.events.AdminEvents;
import io.okapigw.core.eureka.events.DiscoveryEvents;
import io.okapigw.core.eureka.events.Entitlements;
import io.okapigw.core.eureka.events.LogoutEvents;
import io.okapigw.core.eureka.events.ReaderRole;
import io.okapigw.core.health.HealthListener;
import io.okapigw.core.health.NodeReadiness;
import io.okapigw.core.http.HttpError;
import io.okapigw.core.install.Installer;
import io.okapigw.core.proxy.CorsPolicy;
import io.okapigw.core.proxy.ProxyHandler;
import io.okapigw.core.proxy.RequestDispatcher;
import io.okapigw.core.pull.Pull;
import io.okapigw.core.registry.AuthKind;
import io.okapigw.core.registry.Registry;
import io.okapigw.core.routing.RoutingTables;
import io.okapigw.core.server.ConnectionMetrics;
import io.okapigw.core.server.Drain;
import io.okapigw.core.server.Listener;
import io.okapigw.core.server.Listeners;
import io.okapigw.core.storage.Storage;
import io.okapigw.core.tenantinit.SystemCalls;
import io.okapigw.core.tenantinit.TenantInit;
import io.okapigw.core.timer.Scheduler;
import io.okapigw.core.timer.TimerService;
import io.okapigw.core.tracing.Tracing;
import io.okapigw.core.upstream.CallMetrics;
import io.okapigw.core.upstream.ModuleClient;
import io.okapigw.core.upstream.balance.Balancer;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wires a node once, at the top: registry, routing tables, auth cache, cluster messaging, the one
 * {@link ModuleClient}, then the proxy handler and the admin API's route groups; the listeners are
 * handed their handlers, nothing else. Single node or clustered depends only on the Vert.x it is
 * given.
 */
final class GatewayNode {

  private static final Logger log = LoggerFactory.getLogger(GatewayNode.class);

  private final Vertx vertx;
  private final GatewayOptions options;
  private final String okapiUrl;
  private final String version = Version.current();
  private final Storage storage;
  private final Registry registry;
  private final RoutingTables tables;
  private final PrometheusMeterRegistry metrics;
  private final AuthCache cache;
  private final ConfirmedTokens confirmed;
  private final ClusterBus bus;
  private final ClusterView view;
  private final NodeReadiness readiness;
  private final AdminExposure exposure;
  private final ModuleClient modules;
  private final ColdAuthModules coldAuthModules;
  private final AuthFilterClient authFilter;
  private final AuthBreakers authBreakers;
  private final SystemCalls systemCalls;
  private final Scheduler scheduler;
  private final Drain drain;
  private final ConnectionMetrics connections;
  private final TenantBulkhead bulkhead;
  private final CallBacks calls = CallBacks.create();
  private final Tracing tracing;
  private final CachingAuthStage authStage;
  private final EurekaAuthStage eureka;
  private EurekaCalls keycloak;
  private ServiceTokens serviceTokens;
  private LogoutEvents logoutEvents;
  private AdminEvents adminEvents;
  private ReaderRole readerRole;
  private Entitlements entitlements;
  private DiscoveryEvents discoveryEvents;
  private Installer installer;
  private final Environment environment;
  private final Deployments deployments;
  private final Pull pull;
  private ClusterInvalidator invalidator;
  private TimerService timers;
  private Listeners clients;
  private Listeners health;

  GatewayNode(
      Vertx vertx, GatewayOptions options, Ticker ticker, Scheduler scheduler, Storage storage) {
    this.vertx = vertx;
    this.options = options;
    this.okapiUrl = options.okapiUrlFor(options.port());
    this.storage = storage;
    this.registry = new Registry(vertx, storage.registry());
    this.bus = ClusterBus.create(vertx, options.clusterAckTimeout(), options.deployment().host());
    this.view = ClusterView.create(vertx, bus);
    this.tables =
        new RoutingTables(
            vertx, storage.registry(), () -> !view.quorate(), OkapiModule.descriptor(version));
    this.metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    new JvmMemoryMetrics().bindTo(metrics);
    new JvmThreadMetrics().bindTo(metrics);
    new ProcessorMetrics().bindTo(metrics);
    calls.bindTo(metrics);
    this.cache = AuthCache.create(options.authCache(), ticker, metrics);
    this.confirmed = new ConfirmedTokens(cache, ticker);
    this.exposure =
        new AdminExposure(tables, options.admin(), options.host() + ":" + options.port());
    this.tracing = Tracing.create(options.tracing(), calls);
    this.modules =
        ModuleClient.create(
            vertx,
            options.upstream(),
            tracing.observer(new CallMetrics(metrics)),
            Balancer.create(options.upstream().balance(), ticker::read, metrics));
    this.coldAuthModules = new ColdAuthModules(options.auth(), ticker::read);
    this.authFilter = new AuthFilterClient(modules, coldAuthModules);
    this.authBreakers = new AuthBreakers(options.auth(), ticker::read, metrics);
    this.systemCalls = new SystemCalls(modules, authFilter, storage.registry(), okapiUrl, calls);
    this.scheduler = scheduler;
    this.drain = new Drain(options.drain());
    this.readiness = new NodeReadiness(drain, view::notReady);
    this.connections = new ConnectionMetrics(metrics);
    this.bulkhead = TenantBulkhead.create(options.bulkhead(), metrics, ticker::read);
    this.authStage = new CachingAuthStage(cache, authFilter, metrics, confirmed, authBreakers);
    this.eureka = eurekaStage(ticker);
    this.environment = new Environment(storage.env());
    this.deployments =
        new Deployments(
            vertx,
            bus,
            new NodeDeployer(
                vertx,
                options.deployment(),
                bus.nodeId(),
                registry.discovery(),
                environment,
                modules),
            registry);
    this.pull = new Pull(vertx, registry, options.admin().pullMaxBytes(), AdminApi.MAX_BODY_BYTES);
  }

  /** Keycloak's decisions for Eureka tenants, through the node's decision cache. */
  private EurekaAuthStage eurekaStage(Ticker ticker) {
    EurekaOptions eurekaOptions = options.eureka();
    if (!eurekaOptions.enabled()) {
      return EurekaAuthStage.off(eurekaOptions);
    }
    keycloak = new EurekaCalls(modules, eurekaOptions);
    serviceTokens = new ServiceTokens(keycloak, eurekaOptions, ticker);
    return EurekaAuthStage.create(
        eurekaOptions,
        authStage,
        keycloak,
        serviceTokens,
        tables,
        modules,
        okapiUrl,
        Timing.of(scheduler::now, scheduler::at),
        Clock.systemUTC());
  }

  static Future<GatewayNode> start(
      Vertx vertx, GatewayOptions requested, Ticker ticker, Scheduler scheduler) {
    return start(
        vertx,
        requested,
        (options, storage) -> new GatewayNode(vertx, options, ticker, scheduler, storage));
  }

  /**
   * As {@link #start(Vertx, GatewayOptions, Ticker, Scheduler)}, the node built by {@code build}
   * from the options (port 0 replaced by a free port) and the opened storage. Building the node and
   * its handlers is wiring only, but the first time in a JVM it loads and links their classes:
   * beside two CPU burners (load 8-12) that held the event loop 1.8-5.9 s in one stretch of the
   * demo's start (issue 48). So both run on a worker of the caller's context; the node connects and
   * listens on the event loop (the longest stretch left there, 0.5-0.7 s, is Netty's first listen).
   */
  static Future<GatewayNode> start(
      Vertx vertx,
      GatewayOptions requested,
      BiFunction<GatewayOptions, Storage, GatewayNode> build) {
    GatewayOptions options = withFreePorts(requested);
    return Storage.open(vertx, options.storage())
        .compose(storage -> vertx.executeBlocking(() -> build.apply(options, storage)))
        .compose(
            node ->
                node.connect()
                    .compose(v -> vertx.executeBlocking(() -> node.listeners(node.proxy())))
                    .compose(node::serve)
                    .recover(e -> node.closeClients().transform(v -> Future.failedFuture(e))));
  }

  /** The cluster messaging and the timers, and who is told of a registry change. */
  private Future<Void> connect() {
    return Future.all(
            RegistrySync.start(tables, bus),
            ClusterInvalidator.start(vertx, cache, bus),
            TimerService.create(
                vertx, storage.registry(), storage.timers(), bus, scheduler, systemCalls, metrics),
            ClusterNodes.register(vertx, bus, okapiUrl, options.node().nodeName()),
            deployments.start())
        .compose(
            started -> {
              RegistrySync sync = started.resultAt(0);
              invalidator = started.resultAt(1);
              timers = started.resultAt(2);
              // routing first: a decision cached after the invalidation comes from the new modules
              registry.onChange(
                  change ->
                      sync.changed(change.scope())
                          .compose(v -> invalidator.invalidateTenants(change.staleGrants()))
                          .onSuccess(v -> exposure.logState())
                          .onSuccess(v -> newEurekaTenants()));
              registry.onChange(change -> timers.changed(change.scope()));
              return followEureka();
            })
        .compose(v -> view.start(this::reread));
  }

  /**
   * The cluster's members changed (or this node merged after a split, or was paused past the
   * heartbeat timeout): every table rebuilt from the cluster's maps, the timers re-read; when this
   * node may have missed invalidations, every cached auth decision dropped, before and again after
   * the rebuild (a decision loaded meanwhile may come from the old tables). Readiness is false
   * until this is done.
   */
  private Future<Void> reread(ClusterView.Change change) {
    return dropDecisions(change)
        .compose(v -> tables.rebuild())
        .compose(v -> dropDecisions(change))
        .compose(v -> timers.changed())
        .onSuccess(v -> exposure.logState());
  }

  private Future<Void> dropDecisions(ClusterView.Change change) {
    return change.dropDecisions()
        ? invalidator.dropAllHere(change.why())
        : Future.succeededFuture();
  }

  /**
   * What changes Eureka tenants' decisions: mod-login-keycloak's logout events on Kafka, read by
   * every node for itself; Keycloak's admin events, read by the cluster's reader for every node.
   */
  private Future<Void> followEureka() {
    EurekaOptions eurekaOptions = options.eureka();
    if (!eurekaOptions.enabled()) {
      return Future.succeededFuture();
    }
    if (eurekaOptions.kafka() != null) {
      logoutEvents = LogoutEvents.start(cache, eurekaOptions, bus.nodeId());
    }
    boolean reads = eurekaOptions.adminCalls() && !eurekaOptions.adminEventsInterval().isZero();
    return ReaderRole.start(vertx, bus, reads)
        .compose(
            role -> {
              readerRole = role;
              return AdminEvents.start(
                  vertx,
                  cache,
                  keycloak,
                  serviceTokens,
                  () -> tables.tenants(AuthKind.EUREKA),
                  eurekaOptions,
                  bus,
                  role);
            })
        .map(
            events -> {
              adminEvents = events;
              return null;
            });
  }

  /**
   * Eureka tenants' modules from mgr-tenant-entitlements and mgr-applications, and their instances
   * as {@code {env}.discovery} moves them, if configured.
   */
  private void followEntitlements() {
    EurekaOptions eurekaOptions = options.eureka();
    if (!eurekaOptions.enabled() || eurekaOptions.applicationsUrl() == null) {
      return;
    }
    EurekaCalls applications =
        new EurekaCalls(
            modules, "mgr-applications", eurekaOptions.applicationsUrl(), eurekaOptions);
    if (eurekaOptions.kafka() != null) {
      discoveryEvents =
          DiscoveryEvents.start(vertx, eurekaOptions, applications, serviceTokens, registry);
    }
    if (eurekaOptions.entitlementsUrl() == null) {
      return;
    }
    entitlements =
        Entitlements.start(
            vertx,
            eurekaOptions,
            new EurekaCalls(
                modules, "mgr-tenant-entitlements", eurekaOptions.entitlementsUrl(), eurekaOptions),
            applications,
            serviceTokens,
            registry,
            installer,
            () -> tables.tenants(AuthKind.EUREKA),
            readerRole);
  }

  /**
   * A tenant that became an Eureka tenant through this node is read from mgr-tenant-entitlements at
   * once (not waited for: the read changes the registry itself).
   */
  private void newEurekaTenants() {
    if (entitlements != null) {
      entitlements.tenantsChanged();
    }
  }

  /** The registry ready, the listeners started, then Okapi's health listener, last. */
  private Future<GatewayNode> serve(List<Listener> listeners) {
    HttpServerOptions http = httpOptions();
    return registry
        .ensureSupertenant(OkapiModule.descriptor(version))
        .compose(v -> tables.rebuild())
        .compose(v -> timers.start())
        .compose(v -> listen(listeners, http))
        .compose(
            v -> {
              followEntitlements();
              return healthListener();
            })
        .map(
            v -> {
              exposure.logState();
              // Okapi starts again, once it listens, the modules it deployed before it stopped
              deployments.restart(options.node().nodeName(), okapiUrl);
              return this;
            });
  }

  /** The public and admin listeners, on Netty ({@link Listeners}), on {@code instances} loops. */
  private Future<Void> listen(List<Listener> listeners, HttpServerOptions http) {
    clients =
        new Listeners(
            vertx,
            options.instances(),
            http,
            options.server(),
            drain,
            connections,
            tracing.observes());
    return clients.listen(listeners);
  }

  /**
   * Stops accepting; draining, the answers in progress get what is left of {@code
   * shutdown.drain-timeout}, else the connections are closed at once.
   */
  private Future<Void> stopListening() {
    if (clients == null) {
      return Future.succeededFuture();
    }
    return clients.shutdown();
  }

  /** Every listener's HTTP options (header size, chunk size, ...). */
  private HttpServerOptions httpOptions() {
    return new HttpServerOptions()
        .setMaxHeaderSize(options.maxHeaderSize())
        .setHandle100ContinueAutomatically(true)
        .setMaxChunkSize(ModuleClient.BODY_CHUNK_SIZE)
        .setTcpNoDelay(true);
  }

  /** The proxy, serving the admin API inside the gateway as the okapi module's handlers. */
  private ProxyHandler proxy() {
    return new ProxyHandler(
        tables,
        modules,
        authStage,
        okapiUrl,
        metrics,
        options.authParallel() == AuthParallel.SAFE,
        confirmed,
        new InternalAdmin(OkapiModule.id(version), adminApi()),
        options.node().logWait(),
        bulkhead,
        calls,
        drain,
        tracing,
        eureka,
        new AuthModuleCalls(authBreakers, coldAuthModules, options.auth().handlerTimeout()),
        options.buffers());
  }

  private Router adminApi() {
    installer =
        new Installer(
            vertx,
            registry,
            storage.registry(),
            new TenantInit(
                vertx,
                systemCalls,
                options.tenantInit(),
                scheduler.clock(),
                bus.nodeId(),
                bus::members),
            bus,
            options.tenantInit().timeout().toMillis(),
            deployments);
    return AdminApi.router(
        vertx,
        List.of(
            this::refuseChangesWhileCutOff,
            AdminRoutes.modules(registry, pull),
            AdminRoutes.tenants(registry, installer),
            AdminRoutes.discovery(registry, bus, modules, deployments),
            AdminRoutes.deployment(deployments.node(), environment),
            AdminRoutes.timers(timers),
            AdminRoutes.authCache(cache, invalidator),
            AdminRoutes.node(version, bus, exposure, metrics, readiness)));
  }

  /**
   * While this node is cut off from its cluster, an admin call that changes anything is refused
   * (503): when the split heals the larger side's maps win, and the change would be lost. Auth
   * cache invalidations, which change only this node, still run.
   */
  private void refuseChangesWhileCutOff(Router router) {
    router
        .route("/_/*")
        .handler(
            ctx -> {
              HttpMethod method = ctx.request().method();
              boolean reads =
                  method == HttpMethod.GET
                      || method == HttpMethod.HEAD
                      || method == HttpMethod.OPTIONS
                      || ctx.request().path().startsWith("/_/proxy/auth-cache/");
              if (reads || view.quorate()) {
                ctx.next();
              } else {
                ctx.fail(
                    HttpError.unavailable(
                        "this node is "
                            + view.notReady().orElse("cut off from its cluster")
                            + ": a change made here would be lost when the split heals; make it"
                            + " on another node"));
              }
            });
  }

  /** The public listener, and the admin listener when {@code admin.port} is set. */
  private List<Listener> listeners(ProxyHandler proxy) {
    CorsPolicy cors = new CorsPolicy(tables, proxy);
    AdminOptions admin = options.admin();
    List<Listener> listeners = new ArrayList<>();
    listeners.add(
        new Listener(
            options.host(),
            options.port(),
            new RequestDispatcher(vertx, proxy, cors, admin.servedOnPublic()),
            connections.limit("public", options.server().maxConnections())));
    if (admin.hasListener()) {
      listeners.add(
          new Listener(
              admin.host(),
              admin.port(),
              new RequestDispatcher(vertx, proxy, cors, true),
              connections.limit("admin", options.server().adminMaxConnections())));
    }
    return listeners;
  }

  /**
   * Okapi's {@code healthPort} listener: {@code /readiness} answers once the node serves; its
   * connections as strict, timed and limited as the other listeners', but past its limit a new
   * connection closes the oldest idle one, so that idle connections cannot keep probes out.
   */
  private Future<Void> healthListener() {
    if (!options.node().hasHealthListener()) {
      return Future.succeededFuture();
    }
    health =
        new Listeners(
            vertx, 1, httpOptions(), options.server(), drain, connections, tracing.observes());
    return health.listen(
        new Listener(
            options.host(),
            options.node().healthPort(),
            HealthListener.handler(vertx, readiness),
            connections.limit("health", options.server().healthMaxConnections()),
            true));
  }

  /**
   * Port 0 becomes a port free now, bound moments later by the listeners; another process may take
   * it in between. Binding port 0 and reading the bound port is not possible here: the port must be
   * known before the listeners start, because wiring the node, which the listeners need to serve,
   * already uses it: the node's URL (X-Okapi-Url) goes to tenant init and timer system calls, is
   * registered in the cluster's node map, and the exposure log names it. Only tests and tools ask
   * for port 0; a deployment names its ports.
   */
  private static GatewayOptions withFreePorts(GatewayOptions requested) {
    GatewayOptions options = requested.port() == 0 ? requested.withPort(freePort()) : requested;
    AdminOptions admin = options.admin();
    return admin.port() == 0 ? options.withAdmin(admin.withPort(freePort())) : options;
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  GatewayOptions options() {
    return options;
  }

  String okapiUrl() {
    return okapiUrl;
  }

  Registry registry() {
    return registry;
  }

  String nodeId() {
    return bus.nodeId();
  }

  /**
   * Drains the node: readiness false and no more timer calls at once; after {@code
   * shutdown.readiness-delay} new client requests refused (503) while the call backs of the
   * requests in flight are served; once these are answered, or {@code shutdown.drain-timeout}
   * later, {@link #stop}.
   */
  Future<Void> drain() {
    drain.begin();
    timers.stopCalls();
    log.info(
        "draining: readiness false; new client requests refused in {} ms, the {} in flight given"
            + " {} ms more",
        options.drain().readinessDelay().toMillis(),
        calls.inFlight(),
        options.drain().drainTimeout().toMillis());
    return after(options.drain().readinessDelay())
        .compose(v -> answered())
        .compose(v -> stop())
        .onSuccess(v -> log.info("drained"));
  }

  /**
   * Refuses new client requests, serving the call backs of those in flight.
   *
   * @return completes once no request is in flight, or after {@code shutdown.drain-timeout}
   */
  private Future<Void> answered() {
    drain.refuseClients();
    long timeout = options.drain().drainTimeout().toMillis();
    log.info(
        "new client requests refused (503); {} requests in flight, their modules' call backs"
            + " served, for up to {} ms",
        calls.inFlight(),
        timeout);
    Promise<Void> answered = Promise.promise();
    long timer =
        vertx.setTimer(
            Math.max(1, timeout),
            id -> {
              if (answered.tryComplete()) {
                log.warn(
                    "shutdown.drain-timeout ({} ms) passed: {} requests still in flight are cut",
                    timeout,
                    calls.inFlight());
              }
            });
    calls.whenIdle(
        () -> {
          if (answered.tryComplete()) {
            vertx.cancelTimer(timer);
            log.info("every request in flight answered: closing the listeners");
          }
        });
    return answered.future();
  }

  /** Completes after {@code delay} on the node's scheduler (tests advance a fake one). */
  private Future<Void> after(Duration delay) {
    if (delay.isZero()) {
      return Future.succeededFuture();
    }
    Promise<Void> elapsed = Promise.promise();
    scheduler.at(
        scheduler.now().plus(delay),
        () -> {
          elapsed.tryComplete();
          return Future.succeededFuture();
        });
    return elapsed.future();
  }

  /** Closes a Kafka follower off the event loop (its consumer's close blocks). */
  private void closeBlocking(AutoCloseable follower) {
    if (follower != null) {
      vertx.executeBlocking(
          () -> {
            follower.close();
            return null;
          });
    }
  }

  /**
   * Stops the timers, closes the listeners (draining: once their requests are answered), stops the
   * health listener, closes the clients.
   */
  Future<Void> stop() {
    if (adminEvents != null) {
      adminEvents.stop();
    }
    closeBlocking(entitlements);
    closeBlocking(discoveryEvents);
    closeBlocking(logoutEvents);
    Future<Void> left =
        readerRole == null ? Future.succeededFuture() : readerRole.leave().otherwise(e -> null);
    return left.compose(v -> timers.stop())
        .compose(v -> stopListening())
        .eventually(() -> deployments.stop(keepDeployedRegistered()))
        .compose(v -> health == null ? Future.succeededFuture() : health.shutdown(0))
        .eventually(this::closeClients);
  }

  /**
   * Whether the instances this node deployed stay in discovery when it stops, to be started again
   * when it starts (as Okapi keeps them): yes when the node will know them again, a single node or
   * one with a {@code nodename}; a cluster member known by its random id removes them.
   */
  private boolean keepDeployedRegistered() {
    return !vertx.isClustered() || options.node().nodeName() != null;
  }

  private Future<Void> closeClients() {
    return modules
        .close()
        .eventually(pull::close)
        .eventually(storage::close)
        .eventually(() -> tracing.close(vertx));
  }
}
