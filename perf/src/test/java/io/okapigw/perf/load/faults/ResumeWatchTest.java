package io.okapigw.perf.load.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ResumeWatchTest {

  private static ResumeWatch watch() {
    return new ResumeWatch(3, 120_000, 422);
  }

  @Test
  void readyAgain_only200WithEveryMember_afterNotReady() {
    ResumeWatch w = watch();
    assertThat(w.health(200, 1, 100)).as("its stale view, before it noticed its pause").isFalse();
    assertThat(w.health(503, 1, 1_100)).isFalse();
    assertThat(w.saidNotReady()).isTrue();
    assertThat(w.health(200, 2, 5_000)).as("not every member yet").isFalse();
    assertThat(w.health(200, 3, 10_400)).isTrue();
    assertThat(w.readyMillis()).isEqualTo(10_400);
    assertThat(w.health(503, 3, 11_000)).as("ready again for good").isTrue();
    assertThat(w.readyMillis()).isEqualTo(10_400);
  }

  @Test
  void noAnswer_countsAsNotReady() {
    ResumeWatch w = watch();
    assertThat(w.health(-1, 0, 50)).isFalse();
    assertThat(w.saidNotReady()).isTrue();
    assertThat(w.health(200, 3, 900)).isTrue();
  }

  @Test
  void neverNotReady_readyAgainOnlyAfterTheBound() {
    ResumeWatch w = watch();
    assertThat(w.health(200, 3, 100)).isFalse();
    assertThat(w.health(200, 3, 119_999)).isFalse();
    assertThat(w.health(200, 3, 120_000)).isTrue();
    assertThat(w.saidNotReady()).isFalse();
  }

  @Test
  void probes_countedApartBeforeAndAfterReady_grantsAreTheGrantedStatus() {
    ResumeWatch w = watch();
    w.probe(422);
    w.probe(503);
    w.probe(403);
    w.probe(-1);
    w.health(503, 1, 500);
    w.probe(403);
    w.health(200, 3, 9_000);
    w.probe(403);
    w.probe(403);
    w.probe(422);
    assertThat(w.grantsBeforeReady()).isEqualTo(1);
    assertThat(w.probesBeforeReady()).isEqualTo(5);
    assertThat(w.grantsAfterReady()).isEqualTo(1);
    assertThat(w.probesAfterReady()).isEqualTo(3);
    assertThat(w.beforeReadyText()).isEqualTo("no answer ×1, 403 ×2, 422 ×1, 503 ×1");
    assertThat(w.afterReadyText()).isEqualTo("403 ×2, 422 ×1");
  }

  @Test
  void nothingProbed_saysNone() {
    assertThat(watch().beforeReadyText()).isEqualTo("none");
  }

  @Test
  void aRefusalIsNeverTheGrantedStatus() {
    assertThatThrownBy(() -> new ResumeWatch(3, 1, 403))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ResumeWatch(3, 1, 401))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
