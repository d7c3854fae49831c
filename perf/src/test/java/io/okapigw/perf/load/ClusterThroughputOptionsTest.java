package io.okapigw.perf.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.okapigw.config.Settings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClusterThroughputOptionsTest {

  private static ClusterThroughputOptions parse(String... args) {
    return ClusterThroughputOptions.from(Settings.fromArgs(List.of(args)));
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
  void unknownFlag_exitsTwoWithoutStartingAnything() {
    assertThat(ClusterThroughput.execute(List.of("--gateway", "http://localhost:9130")))
        .isEqualTo(2);
  }
}
