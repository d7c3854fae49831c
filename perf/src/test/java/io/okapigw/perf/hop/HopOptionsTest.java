package io.okapigw.perf.hop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class HopOptionsTest {

  private static HopOptions of(String... args) {
    return HopOptions.from(HopOptions.SPEC.read(List.of(args)));
  }

  @Test
  void defaults_everyWayButVs_threeSizes() {
    HopOptions o = of();
    assertThat(o.vias()).containsExactly(Via.DIRECT, Via.NGINX, Via.OURS, Via.OURS_AUTH);
    assertThat(o.sizes()).containsExactly(230L, 16L * 1024, 16L * 1024 * 1024);
    assertThat(o.connectionsFor(230)).isEqualTo(64);
    assertThat(o.connectionsFor(16 * 1024)).isEqualTo(5);
    // 4 ways x 3 sizes x (20 s warm-up + 3 x (2 s settling + 10 s))
    assertThat(o.plannedTime()).isEqualTo(Duration.ofSeconds(12 * (20 + 36)));
  }

  @Test
  void vs_addsItsWay_onlyOnLoopback() {
    assertThat(of("--vs", "http://127.0.0.1:9460").vias()).contains(Via.VS);
    assertThatThrownBy(() -> of("--vs", "http://10.0.0.1:9460"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("vs");
    assertThatThrownBy(() -> of("--via", "vs"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--vs");
  }

  @Test
  void via_subsetInFixedOrder() {
    assertThat(of("--via", "ours,nginx").vias()).containsExactly(Via.NGINX, Via.OURS);
    assertThatThrownBy(() -> of("--via", "apache")).hasMessageContaining("via");
  }

  @Test
  void badSetting_namesIt() {
    assertThatThrownBy(() -> of("--sizes", "16XB")).hasMessageContaining("sizes");
    assertThatThrownBy(() -> of("--duration", "0s")).hasMessageContaining("duration");
    assertThatThrownBy(() -> of("--rounds", "0")).hasMessageContaining("rounds");
    assertThatThrownBy(() -> of("--nope", "1")).hasMessageContaining("nope");
  }

  @Test
  void sizes_formatBack() {
    assertThat(SizeArgs.format(230)).isEqualTo("230B");
    assertThat(SizeArgs.format(16 * 1024)).isEqualTo("16KB");
    assertThat(SizeArgs.format(16 * 1024 * 1024)).isEqualTo("16MB");
  }
}
