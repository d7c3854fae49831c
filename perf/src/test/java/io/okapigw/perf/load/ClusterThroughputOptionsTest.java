package io.okapigw.perf.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClusterThroughputOptionsTest {

  private static ClusterThroughputOptions parse(String... args) {
    return ClusterThroughputOptions.from(ClusterThroughputOptions.SPEC.read(List.of(args)));
  }

  @Test
  void defaults_threeNodesEightUsersAMinuteEach() {
    ClusterThroughputOptions o = parse();

    assertThat(o.nodes()).isEqualTo(3);
    assertThat(o.users()).containsExactly(8);
    assertThat(o.duration()).isEqualTo(Duration.ofSeconds(60));
    assertThat(o.slices()).isEqualTo(6);
    assertThat(o.instances()).isEqualTo(2);
    assertThat(o.gatewayJar()).isEqualTo(Path.of("okapi-core/target/okapi-core-fat.jar"));
  }

  @Test
  void nodes_outOfRange_isRefusedNamingTheFlag() {
    assertThatThrownBy(() -> parse("--nodes", "1")).hasMessageContaining("nodes");
    assertThatThrownBy(() -> parse("--nodes", "9")).hasMessageContaining("nodes");
  }

  @Test
  void slicesShorterThanASecond_areRefused() {
    assertThatThrownBy(() -> parse("--duration", "3s", "--slices", "6"))
        .hasMessageContaining("--slices 6");
  }

  @Test
  void documentedExample_read() {
    ClusterThroughputOptions o =
        parse(
            "--nodes",
            "3",
            "--users",
            "8,32",
            "--duration",
            "60s",
            "--warmup",
            "20s",
            "--slices",
            "6");
    assertThat(o.users()).containsExactly(8, 32);
    assertThat(o.warmup()).isEqualTo(Duration.ofSeconds(20));
  }

  @Test
  void loadDriversOwnSetting_isRefusedAsUnknown() {
    assertThatThrownBy(() -> parse("--gateway", "http://localhost:9130"))
        .hasMessageStartingWith("unknown setting 'gateway'");
  }
}
