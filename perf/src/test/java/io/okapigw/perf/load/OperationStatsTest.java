package io.okapigw.perf.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OperationStatsTest {

  @Test
  void errorKinds_byStatusAndLoss_mergedOverBothOperations() {
    PhaseStats stats = PhaseStats.create();
    stats.checkOut().record(1_000_000, (String) null);
    stats.checkOut().record(2_000_000, "502");
    stats.checkOut().record(3_000_000, "502");
    stats.checkIn().record(1_000_000, "no answer");
    stats.checkIn().lost("lost in flight");

    PhaseFigures figures = PhaseFigures.of(Duration.ofSeconds(2), stats);

    assertThat(figures.errorKinds())
        .isEqualTo(Map.of("502", 2L, "no answer", 1L, "lost in flight", 1L));
    assertThat(figures.errors()).isEqualTo(4);
    assertThat(figures.both().count()).isEqualTo(4);
    assertThat(figures.both().errors()).isEqualTo(3);
    assertThat(figures.errorKindsText()).isEqualTo("502 ×2, lost in flight ×1, no answer ×1");
  }
}
