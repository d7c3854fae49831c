package io.okapigw.core.config;

import io.okapigw.cache.AuthCacheOptions;
import io.okapigw.config.Setting;
import io.okapigw.config.SettingsSpec;
import io.okapigw.config.StartDeadline;
import io.okapigw.core.admin.AdminOptions;
import io.okapigw.core.auth.AuthOptions;
import io.okapigw.core.bulkhead.BulkheadOptions;
import io.okapigw.core.cluster.ClusterOptions;
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

/**
 * Every setting of a gateway node, declared once: the node's own here, the others where they are
 * read ({@link ServerOptions}, {@link DrainOptions}, {@link BulkheadOptions}, {@link
 * UpstreamOptions}, {@link BufferOptions}, {@link AuthCacheOptions}, {@link AuthOptions}, {@link
 * StorageOptions}, {@link TenantInitOptions}, {@link AdminOptions}, {@link NodeOptions}, {@link
 * ClusterOptions}, {@link TracingOptions}, {@link EurekaOptions}, {@link DeploymentOptions}), with
 * Okapi's keys as their aliases, and Okapi's other keys in {@link OkapiKeys}. {@code help} and the
 * tables in {@code docs/settings.md} are generated from {@link #ALL}.
 */
public final class GatewaySettings {

  private static final Duration DAY = Duration.ofDays(1);
  private static final Duration MS = Duration.ofMillis(1);

  public static final Setting<Integer> PORT =
      Setting.integer("port", GatewayOptions.DEFAULT_PORT, 0, 65535)
          .alias("http.port")
          .alias("port")
          .about("HTTP port (admin API and proxy); 0 picks a free one");

  public static final Setting<String> HOST =
      Setting.text("host", GatewayOptions.DEFAULT_HOST, "HOST").about("interface to listen on");

  public static final Setting<String> OKAPI_URL =
      Setting.text("okapi-url", null, "URL")
          .alias("okapiurl", GatewaySettings::withoutTrailingSlash, "URL")
          .shownDefault("http://localhost:PORT")
          .about("the X-Okapi-Url modules call back: this node's address as modules see it")
          .details("In containers: `http://gateway-1:9130`.");

  public static final Setting<Integer> INSTANCES =
      Setting.integer("instances", Runtime.getRuntime().availableProcessors(), 1, 256)
          .shownDefault("cores")
          .about("event loops serving the listeners' connections");

  public static final Setting<Long> MAX_HEADER_SIZE =
      Setting.size("max-header-size", GatewayOptions.DEFAULT_MAX_HEADER_SIZE, 1024, 1024 * 1024)
          .about("larger request headers get 431");

  public static final Setting<AuthParallel> AUTH_PARALLEL =
      Setting.choice("auth.parallel", AuthParallel.OFF)
          .about(
              "`safe`: on a cache miss, GET/HEAD routes that need nothing from the auth answer call"
                  + " the handler during the auth call, for a token the auth module has already"
                  + " accepted; the response waits for the decision")
          .details(
              "It is discarded on refusal. The handler gets the user and token the auth module"
                  + " confirmed before (a fresh cached grant of the token on another route), no"
                  + " permissions; any other request waits for the decision.");

  public static final Setting<Duration> CLUSTER_ACK_TIMEOUT =
      Setting.duration("cluster.ack-timeout", GatewayOptions.DEFAULT_CLUSTER_ACK_TIMEOUT, MS, DAY)
          .about(
              "how long a registry change or an invalidation waits for the other nodes'"
                  + " confirmation (then 202 naming those that did not confirm)");

  /** The settings of a node: of command {@code dev}, read by {@link GatewayOptions#from}. */
  public static final SettingsSpec NODE =
      SettingsSpec.of(PORT, HOST, OKAPI_URL, INSTANCES, MAX_HEADER_SIZE)
          .and(StartDeadline.SETTINGS)
          .and(ServerOptions.SETTINGS)
          .and(DrainOptions.SETTINGS)
          .and(BulkheadOptions.SETTINGS)
          .and(UpstreamOptions.SETTINGS)
          .and(BufferOptions.SETTINGS)
          .and(AuthCacheOptions.SETTINGS)
          .and(SettingsSpec.of(AUTH_PARALLEL))
          .and(AuthOptions.SETTINGS)
          .and(StorageOptions.SETTINGS)
          .and(TenantInitOptions.SETTINGS)
          .and(AdminOptions.SETTINGS)
          .and(SettingsSpec.of(CLUSTER_ACK_TIMEOUT))
          .and(NodeOptions.SETTINGS)
          .and(TracingOptions.SETTINGS)
          .and(EurekaOptions.SETTINGS)
          .and(DeploymentOptions.SETTINGS)
          .and(OkapiKeys.SPEC);

  /** The settings of command {@code cluster}: a node's and how it joins the cluster. */
  public static final SettingsSpec ALL = NODE.and(ClusterOptions.SETTINGS);

  private GatewaySettings() {}

  /** Okapi drops trailing slashes from {@code okapiurl}. */
  private static String withoutTrailingSlash(String url) {
    return url.replaceFirst("/+$", "");
  }
}
