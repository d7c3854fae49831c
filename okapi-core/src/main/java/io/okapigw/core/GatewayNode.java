package io.okapigw.core;

import com.github.benmanes.caffeine.cache.Ticker;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.okapigw.cache.AuthCache;
import io.okapigw.core.auth.Invalidation;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.registry.Registry;
import io.okapigw.core.registry.RegistryStore;
import io.okapigw.core.routing.RoutingTables;
import io.okapigw.core.tenantinit.TenantPermissionsHook;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.function.Function;

/** Wires a node: store, registry, routing tables, and the HTTP verticles sharing them. */
final class GatewayNode implements Gateway {

  private final Vertx vertx;
  private final int port;
  private final String okapiUrl;
  private final Registry registry;
  private final String deploymentId;

  private GatewayNode(Vertx vertx, int port, String okapiUrl, Registry registry,
      String deploymentId) {
    this.vertx = vertx;
    this.port = port;
    this.okapiUrl = okapiUrl;
    this.registry = registry;
    this.deploymentId = deploymentId;
  }

  static Future<Gateway> start(Vertx vertx, GatewayOptions requested, Ticker ticker) {
    GatewayOptions options = requested.port() == 0
        ? requested.withPort(freePort()) : requested;
    String okapiUrl = options.okapiUrlFor(options.port());
    RegistryStore store = RegistryStore.inMemory();
    Registry registry = new Registry(vertx, store,
        new TenantPermissionsHook(vertx, store, okapiUrl));
    RoutingTables tables = new RoutingTables(store);
    registry.onChange(tables::rebuild);
    PrometheusMeterRegistry metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    AuthCache cache = AuthCache.create(options.authCache(), ticker, metrics);
    Function<Invalidation, Future<Long>> invalidator =
        inv -> Future.succeededFuture(inv.applyTo(cache));
    Shared shared = new Shared(options, okapiUrl, registry, tables, Version.current(), cache,
        invalidator, metrics);
    return tables.rebuild()
        .compose(v -> vertx.deployVerticle(() -> new HttpVerticle(shared),
            new DeploymentOptions().setInstances(options.instances())))
        .map(id -> new GatewayNode(vertx, options.port(), okapiUrl, registry, id));
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
    return port;
  }

  @Override
  public String okapiUrl() {
    return okapiUrl;
  }

  @Override
  public Registry registry() {
    return registry;
  }

  @Override
  public Future<Void> stop() {
    return vertx.undeploy(deploymentId);
  }

  /** What every HTTP verticle of the node shares. */
  record Shared(GatewayOptions options, String okapiUrl, Registry registry, RoutingTables tables,
      String version, AuthCache cache, Function<Invalidation, Future<Long>> invalidator,
      PrometheusMeterRegistry metrics) {
  }
}
