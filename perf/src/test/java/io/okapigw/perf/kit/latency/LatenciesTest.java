package io.okapigw.perf.kit.latency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class LatenciesTest {

  @Test
  void stats_none_areZeros() {
    assertThat(new Latencies().stats()).isEqualTo(new LatencyStats(0, 0, 0, 0, 0, 0));
  }

  @Test
  void stats_meanAndMaxExact_percentilesWithinATenthOfAPercent() {
    // 1 ms, 2 ms, ... 1000 ms
    Latencies latencies =
        Latencies.of(LongStream.rangeClosed(1, 1000).map(i -> i * 1_000_000).toArray());

    LatencyStats stats = latencies.stats();

    assertThat(stats.count()).isEqualTo(1000);
    assertThat(stats.mean()).isEqualTo(500.5);
    assertThat(stats.max()).isEqualTo(1000.0);
    assertThat(stats.p50()).isCloseTo(500.0, within(0.5));
    assertThat(stats.p90()).isCloseTo(900.0, within(0.9));
    assertThat(stats.p99()).isCloseTo(990.0, within(1.0));
  }

  @Test
  void merge_poolsEveryLatency() {
    Latencies merged =
        Latencies.merge(List.of(Latencies.of(1_000_000, 3_000_000), Latencies.of(2_000_000)));

    LatencyStats stats = merged.stats();
    assertThat(stats.count()).isEqualTo(3);
    assertThat(stats.mean()).isEqualTo(2.0);
    assertThat(stats.p50()).isEqualTo(2.0);
    assertThat(stats.p99()).isCloseTo(3.0, within(0.003));
    assertThat(stats.max()).isEqualTo(3.0);
  }
}
