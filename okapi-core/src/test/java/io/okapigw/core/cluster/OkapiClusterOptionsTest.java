package io.okapigw.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.okapigw.config.Settings;
import io.okapigw.core.cluster.ClusterOptions.HazelcastConfig;
import io.okapigw.core.config.GatewaySettings;
import io.okapigw.testsupport.FreePorts;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Okapi's cluster options ({@code -hazelcast-config-file|-cp|-url}, {@code -cluster-host}, {@code
 * -cluster-port}) on the command {@code cluster}, as Okapi's {@code MainDeploy} reads them.
 */
class OkapiClusterOptionsTest {

  private static final String HAZELCAST_XML =
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <hazelcast xmlns="http://www.hazelcast.com/schema/config">
        <cluster-name>folio</cluster-name>
        <network>
          <port auto-increment="true" port-count="100">5801</port>
          <join>
            <multicast enabled="false"/>
            <tcp-ip enabled="true"><member>10.0.0.1</member></tcp-ip>
          </join>
        </network>
      </hazelcast>
      """;

  private static ClusterOptions cluster(String... args) {
    return ClusterOptions.from(GatewaySettings.ALL.read(List.of(args), Map.of()));
  }

  @Test
  void hazelcastConfigFile_okapisOption_loadedAsGiven(@TempDir Path dir) throws IOException {
    Path xml = dir.resolve("hazelcast.xml");
    Files.writeString(xml, HAZELCAST_XML);

    ClusterOptions options = cluster("-hazelcast-config-file", xml.toString());
    Config config = ClusteredVertx.hazelcastConfig(options);

    assertThat(options.hazelcastConfig())
        .isEqualTo(new HazelcastConfig(HazelcastConfig.Source.FILE, xml.toString()));
    assertThat(config.getClusterName()).isEqualTo("folio");
    assertThat(config.getNetworkConfig().getPort()).isEqualTo(5801);
    assertThat(config.getNetworkConfig().getJoin().getTcpIpConfig().getMembers())
        .containsExactly("10.0.0.1");
  }

  @Test
  void withHazelcastConfig_clusterHostAndPort_areTheEventBusAsInOkapi(@TempDir Path dir)
      throws IOException {
    Path xml = dir.resolve("hazelcast.xml");
    Files.writeString(xml, HAZELCAST_XML);
    String file = xml.toString();

    ClusterOptions bare = cluster("-hazelcast-config-file", file);
    ClusterOptions given =
        cluster(
            "-hazelcast-config-file", file, "-cluster-host", "10.0.0.5", "-cluster-port", "9001");

    assertThat(bare.host()).as("the Hazelcast member's address, as Vert.x picks it").isNull();
    assertThat(bare.port()).as("a free event bus port").isZero();
    assertThat(given.host()).isEqualTo("10.0.0.5");
    assertThat(given.port()).isEqualTo(9001);
  }

  @Test
  void withoutHazelcastConfig_clusterPortIsTheMemberPort_asBefore() {
    ClusterOptions options = cluster("-cluster-host", "10.0.0.5", "-cluster-port", "5702");
    Config config = ClusteredVertx.hazelcastConfig(options);
    assertThat(config.getNetworkConfig().getPort()).isEqualTo(5702);
    assertThat(config.getProperty("hazelcast.local.localAddress")).isEqualTo("10.0.0.5");
  }

  @Test
  void hazelcastConfigCpAndUrl_loadedLikeOkapi(@TempDir Path dir) throws IOException {
    ClusterOptions classpath = cluster("-hazelcast-config-cp", "default-cluster.xml");
    assertThat(ClusteredVertx.hazelcastConfig(classpath).getNetworkConfig().getPort())
        .isEqualTo(5701);
    Path xml = dir.resolve("hz.xml");
    Files.writeString(xml, HAZELCAST_XML);
    ClusterOptions url = cluster("-hazelcast-config-url", xml.toUri().toString());
    assertThat(ClusteredVertx.hazelcastConfig(url).getClusterName()).isEqualTo("folio");
  }

  @Test
  void hazelcastConfig_missing_refusedNamingIt() {
    ClusterOptions file = cluster("-hazelcast-config-file", "/no/such/hazelcast.xml");
    assertThatThrownBy(() -> ClusteredVertx.hazelcastConfig(file))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("hazelcast config: cannot load /no/such/hazelcast.xml");
    ClusterOptions resource = cluster("-hazelcast-config-cp", "no-such.xml");
    assertThatThrownBy(() -> ClusteredVertx.hazelcastConfig(resource))
        .hasMessageStartingWith("hazelcast config: cannot load no-such.xml");
  }

  @Test
  void twoHazelcastConfigs_refused() {
    assertThatThrownBy(
            () -> cluster("-hazelcast-config-file", "a.xml", "-hazelcast-config-cp", "b.xml"))
        .hasMessage(
            "hazelcast-config, hazelcast-config-cp and hazelcast-config-url: give one of them");
  }

  @Test
  void hazelcastConfig_ourNameAndOkapis_theSameSetting() {
    Settings settings =
        GatewaySettings.ALL.read(List.of("--hazelcast-config", "ours.yaml"), Map.of());
    assertThat(ClusterOptions.from(settings).hazelcastConfig().location()).isEqualTo("ours.yaml");
  }

  @Test
  void clusterWithAMemberNotOurs_asAnOkapiNode_refusedNamingIt() {
    int port = FreePorts.belowEphemeralRange();
    ClusterOptions options =
        new ClusterOptions("127.0.0.1", port, List.of("127.0.0.1:" + port), null);
    Config okapisNode = ClusteredVertx.hazelcastConfig(options);
    HazelcastInstance okapi = Hazelcast.newHazelcastInstance(okapisNode);
    try {
      int ours = FreePorts.belowEphemeralRange();
      ClusterOptions joining =
          new ClusterOptions("127.0.0.1", ours, List.of("127.0.0.1:" + port), null);
      assertThatThrownBy(() -> ClusteredVertx.start(joining).await())
          .hasMessageStartingWith(
              "the Hazelcast cluster has members that are not nodes of this gateway (Okapi's?):"
                  + " [127.0.0.1]:"
                  + port)
          .hasMessageContaining("stop Okapi's nodes first");
    } finally {
      okapi.shutdown();
    }
  }

  @Test
  void clusterOfOurNodes_joins() {
    int port = FreePorts.belowEphemeralRange();
    ClusterOptions first =
        new ClusterOptions("127.0.0.1", port, List.of("127.0.0.1:" + port), null);
    Vertx one = ClusteredVertx.start(first).await();
    try {
      int second = FreePorts.belowEphemeralRange();
      Vertx two =
          ClusteredVertx.start(
                  new ClusterOptions("127.0.0.1", second, List.of("127.0.0.1:" + port), null))
              .await();
      assertThat(ClusteredVertx.managerOf(two).getNodes()).hasSize(2);
      two.close().await();
    } finally {
      one.close().await();
    }
  }
}
