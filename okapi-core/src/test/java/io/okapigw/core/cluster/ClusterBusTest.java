package io.okapigw.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.okapigw.testsupport.FreePorts;
import io.vertx.core.Vertx;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClusterBusTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(1);

  @Test
  void singleNodeVertx_localBus() {
    Vertx vertx = Vertx.vertx();
    try {
      ClusterBus bus = ClusterBus.create(vertx, TIMEOUT);
      assertThat(bus.nodeId()).isEqualTo("localhost");
      assertThat(bus.members()).containsExactly("localhost");
    } finally {
      vertx.close().await();
    }
  }

  @Test
  void vertxFromClusteredVertx_busOfItsClusterManager() {
    Vertx vertx = ClusteredVertx.start(options()).await();
    try {
      ClusterBus bus = ClusterBus.create(vertx, TIMEOUT);
      assertThat(bus.nodeId())
          .isEqualTo(ClusteredVertx.managerOf(vertx).getNodeId())
          .isNotEqualTo("localhost");
      assertThat(bus.members()).containsExactly(bus.nodeId());
    } finally {
      vertx.close().await();
    }
  }

  @Test
  void clusteredVertxMadeElsewhere_refusedWithTheReason() {
    Vertx vertx =
        Vertx.builder()
            .withClusterManager(
                new HazelcastClusterManager(ClusteredVertx.hazelcastConfig(options())))
            .buildClustered()
            .await();
    try {
      assertThatThrownBy(() -> ClusterBus.create(vertx, TIMEOUT))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("ClusteredVertx.start");
    } finally {
      vertx.close().await();
    }
  }

  private static ClusterOptions options() {
    int port = FreePorts.belowEphemeralRange(); // Hazelcast binds the member port itself
    return new ClusterOptions("127.0.0.1", port, List.of("127.0.0.1:" + port), null);
  }
}
