package io.okapigw.perf.hop;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The hop module's reading of its path. */
class HopModuleTest {

  @Test
  void moduleSize_onlyDigitsUnderThePrefix() {
    assertThat(HopModule.size("/hop/230")).isEqualTo(230);
    assertThat(HopModule.size("/hop/0")).isZero();
    assertThat(HopModule.size("/hop/")).isEqualTo(-1);
    assertThat(HopModule.size("/hop/1x")).isEqualTo(-1);
    assertThat(HopModule.size("/other/1")).isEqualTo(-1);
    assertThat(HopModule.size("/hop/99999999999999")).isEqualTo(-1);
  }
}
