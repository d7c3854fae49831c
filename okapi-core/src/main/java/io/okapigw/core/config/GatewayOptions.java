package io.okapigw.core.config;

import io.okapigw.cache.AuthCacheOptions;
import io.okapigw.config.Settings;
import io.okapigw.core.admin.AdminOptions;
import io.okapigw.core.auth.AuthOptions;
import io.okapigw.core.bulkhead.BulkheadOptions;
import io.okapigw.core.deployment.DeploymentOptions;
import io.okapigw.core.eureka.EurekaOptions;
import io.okapigw.core.proxy.BufferOptions;
import io.okapigw.core.server.DrainOptions;
import io.okapigw.core.server.ServerOptions;
import io.okapigw.core.storage.StorageOptions;
import io.okapigw.core.tenantinit.TenantInitOptions;
import io.okapigw.core.tracing.TracingOptions;
import io.okapigw.core.upstream.UpstreamOptions;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Everything a gateway node is configured with, defaults in one place, validated on creation; each
 * setting is declared (key, accepted values, meaning) in {@link GatewaySettings}.
 *
 * @param port HTTP port (default 9130; 0 picks a free one)
 * @param host interface to listen on (default 0.0.0.0)
 * @param okapiUrl the URL modules call the gateway at (X-Okapi-Url); default {@code
 *     http://localhost:<port>}
 * @param instances event loops serving the listeners' connections (default: number of cores)
 * @param maxHeaderSize largest request header block accepted; larger gets 431 (default 16 KiB)
 * @param upstream how module instances are called
 * @param authCache the auth decision cache ({@code auth.cache.*} settings)
 * @param storage where the registry lives: in memory (default; cluster-wide maps when clustered) or
 *     a PostgreSQL database
 * @param clusterAckTimeout how long a node waits for the other members to confirm a registry change
 *     or cache invalidation (default 2 s)
 * @param authParallel {@code auth.parallel}: off (default) or safe
 * @param admin where the admin API is served ({@code admin.*} settings)
 * @param server how long the listeners wait for clients ({@code server.*} settings)
 * @param tenantInit how long a module's {@code _tenant} call may take ({@code tenant.*} settings)
 * @param node the node's name, health listener and wait log (Okapi's {@code nodename}, {@code
 *     healthPort}, {@code log_wait_ms})
 * @param drain how the node drains on SIGTERM ({@code shutdown.*} settings)
 * @param bulkhead each tenant's limits on its clients' requests ({@code bulkhead.*} settings)
 * @param tracing OpenTelemetry spans and the JSON access log ({@code tracing.*}, {@code
 *     access-log}; off by default)
 * @param eureka Keycloak and Kafka for Eureka tenants ({@code eureka.*} settings; off by default)
 * @param auth how long an auth module may take, and its breaker ({@code auth.timeout}, {@code
 *     auth.breaker.*})
 * @param deployment how the node starts the modules it deploys ({@code deploy.*} settings, Okapi's
 *     {@code port_start}, {@code port_end}, {@code dockerUrl}, ...)
 * @param buffers the bounds of bodies read whole ({@code proxy.buffered-*} settings)
 */
public record GatewayOptions(
    int port,
    String host,
    String okapiUrl,
    int instances,
    int maxHeaderSize,
    UpstreamOptions upstream,
    AuthCacheOptions authCache,
    StorageOptions storage,
    Duration clusterAckTimeout,
    AuthParallel authParallel,
    AdminOptions admin,
    ServerOptions server,
    TenantInitOptions tenantInit,
    NodeOptions node,
    DrainOptions drain,
    BulkheadOptions bulkhead,
    TracingOptions tracing,
    EurekaOptions eureka,
    AuthOptions auth,
    DeploymentOptions deployment,
    BufferOptions buffers) {

  public static final Duration DEFAULT_CLUSTER_ACK_TIMEOUT = Duration.ofSeconds(2);

  public GatewayOptions {
    Objects.requireNonNull(storage, "storage");
    Objects.requireNonNull(node, "node");
    Objects.requireNonNull(drain, "drain");
    Objects.requireNonNull(bulkhead, "bulkhead");
    Objects.requireNonNull(tracing, "tracing");
    Objects.requireNonNull(eureka, "eureka");
    Objects.requireNonNull(auth, "auth");
    Objects.requireNonNull(deployment, "deployment");
    Objects.requireNonNull(buffers, "buffers");
    GatewaySettings.CLUSTER_ACK_TIMEOUT.check(clusterAckTimeout);
    server.checkAgainst(upstream.idleTimeout());
  }

  public static final int DEFAULT_PORT = 9130;
  public static final String DEFAULT_HOST = "0.0.0.0";
  public static final int DEFAULT_MAX_HEADER_SIZE = 16 * 1024;

  /**
   * @return the defaults, on the given port
   */
  public static GatewayOptions defaults(int port) {
    return new GatewayOptions(
        port,
        DEFAULT_HOST,
        null,
        Runtime.getRuntime().availableProcessors(),
        DEFAULT_MAX_HEADER_SIZE,
        UpstreamOptions.defaults(),
        AuthCacheOptions.defaults(),
        StorageOptions.inMemory(),
        DEFAULT_CLUSTER_ACK_TIMEOUT,
        AuthParallel.OFF,
        AdminOptions.defaults(),
        ServerOptions.defaults(),
        TenantInitOptions.defaults(),
        NodeOptions.defaults(),
        DrainOptions.defaults(),
        BulkheadOptions.defaults(),
        TracingOptions.defaults(),
        EurekaOptions.defaults(),
        AuthOptions.defaults(),
        DeploymentOptions.defaults(port),
        BufferOptions.defaults());
  }

  /**
   * Reads the settings of {@link GatewaySettings#NODE}.
   *
   * @throws IllegalArgumentException naming the bad or unknown setting
   */
  public static GatewayOptions from(Settings settings) {
    settings.checkKnown(GatewaySettings.NODE);
    settings.get(OkapiKeys.ENABLE_SYSTEM_AUTH);
    settings.get(OkapiKeys.LOGLEVEL);
    int port = settings.get(GatewaySettings.PORT);
    return new GatewayOptions(
        port,
        settings.get(GatewaySettings.HOST),
        settings.get(GatewaySettings.OKAPI_URL),
        settings.get(GatewaySettings.INSTANCES),
        Math.toIntExact(settings.get(GatewaySettings.MAX_HEADER_SIZE)),
        UpstreamOptions.from(settings),
        AuthCacheOptions.from(settings),
        StorageOptions.from(settings),
        settings.get(GatewaySettings.CLUSTER_ACK_TIMEOUT),
        settings.get(GatewaySettings.AUTH_PARALLEL),
        AdminOptions.from(settings),
        ServerOptions.from(settings),
        TenantInitOptions.from(settings),
        NodeOptions.from(settings),
        DrainOptions.from(settings),
        BulkheadOptions.from(settings),
        TracingOptions.from(settings),
        EurekaOptions.from(settings),
        AuthOptions.from(settings),
        DeploymentOptions.from(settings, port),
        BufferOptions.from(settings));
  }

  /**
   * @return this with another port
   */
  public GatewayOptions withPort(int newPort) {
    return copy(
        b -> {
          b.port = newPort;
          b.deployment = deployment.forPort(port, newPort);
        });
  }

  /**
   * @return this with another number of HTTP server verticles
   */
  public GatewayOptions withInstances(int n) {
    return copy(b -> b.instances = n);
  }

  /**
   * @return this with other auth cache options
   */
  public GatewayOptions withAuthCache(AuthCacheOptions options) {
    return copy(b -> b.authCache = options);
  }

  /**
   * @return this with another {@code auth.timeout} or breaker
   */
  public GatewayOptions withAuth(AuthOptions newAuth) {
    return copy(b -> b.auth = newAuth);
  }

  /**
   * @return this with another {@code auth.parallel} mode
   */
  public GatewayOptions withAuthParallel(AuthParallel mode) {
    return copy(b -> b.authParallel = mode);
  }

  /**
   * @return this with other {@code admin.*} settings
   */
  public GatewayOptions withAdmin(AdminOptions newAdmin) {
    return copy(b -> b.admin = newAdmin);
  }

  /**
   * @return this with other {@code server.*} timeouts
   */
  public GatewayOptions withServer(ServerOptions newServer) {
    return copy(b -> b.server = newServer);
  }

  /**
   * @return this with another storage
   */
  public GatewayOptions withStorage(StorageOptions newStorage) {
    return copy(b -> b.storage = newStorage);
  }

  /**
   * @return this with another node name, health listener or wait log
   */
  public GatewayOptions withNode(NodeOptions newNode) {
    return copy(b -> b.node = newNode);
  }

  /**
   * @return this with other {@code shutdown.*} settings
   */
  public GatewayOptions withDrain(DrainOptions newDrain) {
    return copy(b -> b.drain = newDrain);
  }

  /**
   * @return this with other {@code bulkhead.*} limits
   */
  public GatewayOptions withBulkhead(BulkheadOptions newBulkhead) {
    return copy(b -> b.bulkhead = newBulkhead);
  }

  /**
   * @return this with other {@code tenant.*} timeouts
   */
  public GatewayOptions withTenantInit(TenantInitOptions newTenantInit) {
    return copy(b -> b.tenantInit = newTenantInit);
  }

  /**
   * @return this with other module-call settings ({@code proxy.*}, {@code proxy.outlier.*})
   */
  public GatewayOptions withUpstream(UpstreamOptions newUpstream) {
    return copy(b -> b.upstream = newUpstream);
  }

  /**
   * @return this with other {@code deploy.*} settings
   */
  public GatewayOptions withDeployment(DeploymentOptions newDeployment) {
    return copy(b -> b.deployment = newDeployment);
  }

  /**
   * @return this with other {@code tracing.*} and {@code access-log} settings
   */
  public GatewayOptions withTracing(TracingOptions newTracing) {
    return copy(b -> b.tracing = newTracing);
  }

  /**
   * @param otlpEndpoint where spans go (OTLP over HTTP); null: where the {@code OTEL_*} environment
   *     says
   * @return this with tracing on
   */
  public GatewayOptions withTracingTo(String otlpEndpoint) {
    return withTracing(tracing.withTracing(otlpEndpoint));
  }

  /**
   * @return this with other {@code proxy.buffered-*} bounds
   */
  public GatewayOptions withBuffers(BufferOptions newBuffers) {
    return copy(b -> b.buffers = newBuffers);
  }

  /**
   * @return this with other {@code eureka.*} settings
   */
  public GatewayOptions withEureka(EurekaOptions newEureka) {
    return copy(b -> b.eureka = newEureka);
  }

  /**
   * A copy with what {@code change} sets changed: one place lists the components for the withers.
   */
  private GatewayOptions copy(Consumer<Copy> change) {
    Copy b = new Copy(this);
    change.accept(b);
    return new GatewayOptions(
        b.port,
        host,
        okapiUrl,
        b.instances,
        maxHeaderSize,
        b.upstream,
        b.authCache,
        b.storage,
        clusterAckTimeout,
        b.authParallel,
        b.admin,
        b.server,
        b.tenantInit,
        b.node,
        b.drain,
        b.bulkhead,
        b.tracing,
        b.eureka,
        b.auth,
        b.deployment,
        b.buffers);
  }

  /** The components a wither may change. */
  private static final class Copy {
    int port;
    int instances;
    UpstreamOptions upstream;
    AuthCacheOptions authCache;
    AuthParallel authParallel;
    AdminOptions admin;
    ServerOptions server;
    TenantInitOptions tenantInit;
    StorageOptions storage;
    NodeOptions node;
    DrainOptions drain;
    BulkheadOptions bulkhead;
    TracingOptions tracing;
    EurekaOptions eureka;
    AuthOptions auth;
    DeploymentOptions deployment;
    BufferOptions buffers;

    Copy(GatewayOptions o) {
      port = o.port;
      instances = o.instances;
      upstream = o.upstream;
      authCache = o.authCache;
      authParallel = o.authParallel;
      admin = o.admin;
      server = o.server;
      tenantInit = o.tenantInit;
      storage = o.storage;
      node = o.node;
      drain = o.drain;
      bulkhead = o.bulkhead;
      tracing = o.tracing;
      eureka = o.eureka;
      auth = o.auth;
      deployment = o.deployment;
      buffers = o.buffers;
    }
  }

  /**
   * @return the X-Okapi-Url for a node bound to {@code boundPort}
   */
  public String okapiUrlFor(int boundPort) {
    return okapiUrl != null ? okapiUrl : "http://localhost:" + boundPort;
  }
}
