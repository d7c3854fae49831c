package io.okapigw.core.cluster;

import com.hazelcast.config.Config;
import com.hazelcast.config.FileSystemXmlConfig;
import com.hazelcast.config.FileSystemYamlConfig;
import com.hazelcast.config.JoinConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.spi.cluster.hazelcast.ConfigUtil;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A clustered Vert.x on Hazelcast: TCP/IP member list, multicast off (works on loopback and in
 * containers), Hazelcast logging through SLF4J, no phone-home.
 */
public final class ClusteredVertx {

  private ClusteredVertx() {
  }

  /** @return a Vert.x that has joined (or started) the cluster */
  public static Future<Vertx> start(ClusterOptions options) {
    Config config = hazelcastConfig(options);
    return Vertx.builder()
        .with(new VertxOptions().setEventBusOptions(new EventBusOptions()
            .setHost(options.host()).setClusterPublicHost(options.host()).setPort(0)))
        .withClusterManager(new HazelcastClusterManager(config))
        .buildClustered();
  }

  static Config hazelcastConfig(ClusterOptions options) {
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
    join.getTcpIpConfig().setEnabled(true).setMembers(options.members().isEmpty()
        ? java.util.List.of(options.host() + ":" + options.port()) : options.members());
    return config;
  }

  private static Config load(String file) {
    try {
      return file.endsWith(".yaml") || file.endsWith(".yml")
          ? new FileSystemYamlConfig(file) : new FileSystemXmlConfig(file);
    } catch (IOException e) {
      throw new UncheckedIOException("hazelcast-config: cannot read " + file, e);
    }
  }
}
