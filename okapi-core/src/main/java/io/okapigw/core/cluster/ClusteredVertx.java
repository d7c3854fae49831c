package io.okapigw.core.cluster;

import com.hazelcast.config.ClasspathXmlConfig;
import com.hazelcast.config.Config;
import com.hazelcast.config.FileSystemXmlConfig;
import com.hazelcast.config.FileSystemYamlConfig;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.MapConfig;
import com.hazelcast.config.MergePolicyConfig;
import com.hazelcast.config.UrlXmlConfig;
import com.hazelcast.spi.merge.DiscardMergePolicy;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.core.shareddata.Shareable;
import io.vertx.core.spi.cluster.ClusterManager;
import io.vertx.spi.cluster.hazelcast.ConfigUtil;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.io.IOException;
import java.util.List;

/**
 * A clustered Vert.x on Hazelcast: TCP/IP member list, multicast off (works on loopback and in
 * containers), Hazelcast logging through SLF4J, no phone-home; or Hazelcast as a given
 * configuration (file, class path or URL) sets it up, the event bus on {@code cluster-host} and
 * {@code cluster-port} when given, as Okapi does.
 */
public final class ClusteredVertx {

  private static final String MANAGER_MAP = "okapigw.cluster-manager";

  private ClusteredVertx() {}

  /**
   * @return a Vert.x that has joined (or started) the cluster; fails, closed again, if the cluster
   *     has members that are not this gateway's nodes (Okapi's)
   */
  public static Future<Vertx> start(ClusterOptions options) {
    HazelcastClusterManager manager =
        new HazelcastClusterManager(OwnMembers.mark(hazelcastConfig(options)));
    EventBusOptions eventBus = new EventBusOptions().setPort(0);
    if (options.hazelcastConfig() != null) {
      eventBus.setPort(options.port());
    }
    if (options.host() != null) {
      eventBus.setHost(options.host()).setClusterPublicHost(options.host());
    }
    return Vertx.builder()
        .with(new VertxOptions().setEventBusOptions(eventBus))
        .withClusterManager(manager)
        .buildClustered()
        .compose(
            vertx ->
                OwnMembers.check(vertx, manager)
                    .map(
                        v -> {
                          vertx
                              .sharedData()
                              .<String, Held>getLocalMap(MANAGER_MAP)
                              .put(MANAGER_MAP, new Held(manager, options.quorum()));
                          return vertx;
                        })
                    .onFailure(e -> vertx.close()));
  }

  /**
   * The cluster manager {@link #start} gave a Vert.x. Vert.x 5's public API has no getter for a
   * Vert.x's cluster manager (only the internal {@code VertxInternal.clusterManager()}), so the one
   * we create is kept in that Vert.x's local shared data, which lives and dies with it.
   *
   * @return the manager, or null if {@code vertx} was not started by {@link #start}
   */
  static ClusterManager managerOf(Vertx vertx) {
    Held held = held(vertx);
    return held == null ? null : held.manager();
  }

  /**
   * @return the {@code cluster-quorum} {@link #start} was given (0: automatic), or 0 if {@code
   *     vertx} was not started by it
   */
  static int quorumOf(Vertx vertx) {
    Held held = held(vertx);
    return held == null ? 0 : held.quorum();
  }

  private static Held held(Vertx vertx) {
    return vertx.sharedData().<String, Held>getLocalMap(MANAGER_MAP).get(MANAGER_MAP);
  }

  /** Local shared data takes only immutable or {@link Shareable} values; this one is shared. */
  private record Held(ClusterManager manager, int quorum) implements Shareable {}

  /**
   * The maps whose entries a healed split must not bring back: after a split the smaller side's
   * entries are dropped and the larger side's kept ({@link DiscardMergePolicy}: the merging side's
   * entry is the source, discarded). Hazelcast's default ({@code PutIfAbsentMergePolicy}) adds back
   * an entry the larger side deleted meanwhile (a deleted tenant came back on every node), and
   * {@code LatestUpdateMergePolicy} cannot see a deletion either. What the smaller side alone held
   * is lost: a node that has lost its quorum says not ready ({@link ClusterView}).
   */
  static final List<String> LARGER_SIDE_WINS =
      List.of("okapigw.registry.*", "okapigw.env", "okapigw.timers.*", "okapigw.discovery.nodes");

  /** Sets the merge policy of {@link #LARGER_SIDE_WINS}, unless the configuration sets one. */
  static Config withMergePolicies(Config config) {
    for (String name : LARGER_SIDE_WINS) {
      if (!config.getMapConfigs().containsKey(name)) {
        config.addMapConfig(
            new MapConfig(name)
                .setMergePolicyConfig(
                    new MergePolicyConfig(
                        DiscardMergePolicy.class.getName(), MergePolicyConfig.DEFAULT_BATCH_SIZE)));
      }
    }
    return config;
  }

  static Config hazelcastConfig(ClusterOptions options) {
    return withMergePolicies(hazelcastSettings(options));
  }

  private static Config hazelcastSettings(ClusterOptions options) {
    if (options.hazelcastConfig() != null) {
      return load(options.hazelcastConfig());
    }
    Config config = ConfigUtil.loadConfig();
    config.setClusterName("okapigw");
    config.setProperty("hazelcast.logging.type", "slf4j");
    config.setProperty("hazelcast.phone.home.enabled", "false");
    config.setProperty("hazelcast.local.localAddress", options.host());
    config.setProperty("hazelcast.socket.bind.any", "false");
    config.getNetworkConfig().setPort(options.port()).setPortAutoIncrement(false);
    JoinConfig join = config.getNetworkConfig().getJoin();
    join.getMulticastConfig().setEnabled(false);
    join.getAutoDetectionConfig().setEnabled(false);
    join.getTcpIpConfig()
        .setEnabled(true)
        .setMembers(
            options.members().isEmpty()
                ? List.of(options.host() + ":" + options.port())
                : options.members());
    return config;
  }

  private static Config load(ClusterOptions.HazelcastConfig config) {
    String where = config.location();
    try {
      Config loaded =
          switch (config.source()) {
            case FILE ->
                where.endsWith(".yaml") || where.endsWith(".yml")
                    ? new FileSystemYamlConfig(where)
                    : new FileSystemXmlConfig(where);
            case CLASSPATH -> new ClasspathXmlConfig(where);
            case URL -> new UrlXmlConfig(where);
          };
      if (loaded.getProperty("hazelcast.logging.type") == null) {
        loaded.setProperty("hazelcast.logging.type", "slf4j");
      }
      return loaded;
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException(
          "hazelcast config: cannot load " + where + ": " + e.getMessage(), e);
    }
  }
}
