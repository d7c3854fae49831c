package io.okapigw.perf.hop;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class HopTableTest {

  private static Measurement run(Via via, long size, int round, double rps, long cpuMicros) {
    long requests = (long) (rps * 10);
    WrkResult wrk = new WrkResult(requests, 10, rps, 1.0, 5.0, 0);
    long cpu = via.proxied() ? cpuMicros * 1000 * requests : -1;
    return new Measurement(via, size, round, wrk, cpu, cpu / 2, 10_000L * requests, -1, -1);
  }

  private static List<Measurement> small() {
    List<Measurement> all = new ArrayList<>();
    // ours: faster and cheaper than nginx in rounds 1 and 3, not in round 2
    double[][] rounds = {
      {40_000, 18, 44_000, 16}, {42_000, 17, 40_000, 19}, {41_000, 18, 45_000, 15}
    };
    for (int r = 0; r < 3; r++) {
      all.add(run(Via.DIRECT, 230, r + 1, 90_000, 0));
      all.add(run(Via.NGINX, 230, r + 1, rounds[r][0], (long) rounds[r][1]));
      all.add(run(Via.OURS, 230, r + 1, rounds[r][2], (long) rounds[r][3]));
      all.add(run(Via.OURS_AUTH, 230, r + 1, rounds[r][2], (long) rounds[r][3]));
    }
    return all;
  }

  @Test
  void table_oneLinePerWayInOrder_medianThenRounds() {
    String table = HopTable.table(230, small());
    List<String> lines = table.lines().toList();
    assertThat(lines).hasSize(2 + 4);
    assertThat(lines.get(2)).startsWith("| direct | 90000 (90000 90000 90000) |");
    assertThat(lines.get(3)).startsWith("| nginx | 41000 (40000 42000 41000) |  |");
    assertThat(lines.get(4)).startsWith("| ours | 44000 (44000 40000 45000) |");
  }

  @Test
  void table_ratiosToNginxRoundByRound() {
    String ours =
        HopTable.table(230, small())
            .lines()
            .filter(l -> l.startsWith("| ours |"))
            .findFirst()
            .orElseThrow();
    // req/s: 44/40, 40/42, 45/41; CPU: 16/18, 19/17, 15/18
    assertThat(ours).contains("| 1.10 (1.10 0.95 1.10) |");
    assertThat(ours).contains("| 0.89 (0.89 1.12 0.83) |");
    assertThat(ours).contains("| 16.0 (16.0 19.0 15.0) |");
  }

  @Test
  void table_directHasNoProxyCpu() {
    String direct =
        HopTable.table(230, small())
            .lines()
            .filter(l -> l.startsWith("| direct |"))
            .findFirst()
            .orElseThrow();
    assertThat(direct.split("\\|", -1)[7].trim()).isEmpty();
    assertThat(direct).contains("| 10.0 |"); // module CPU µs per request
    String ours =
        HopTable.table(230, small())
            .lines()
            .filter(l -> l.startsWith("| ours |"))
            .findFirst()
            .orElseThrow();
    assertThat(ours.split("\\|", -1)[9].trim()).isEqualTo("50"); // kernel %
  }

  @Test
  void targets_countedInRounds() {
    assertThat(HopTable.targets(small()))
        .contains("230B: CPU per request <= nginx's in 2 of 3 rounds")
        .contains("req/s >= nginx's in 2 of 3 rounds")
        .contains("cache hit CPU per request ÷ no auth: median 1.00");
  }

  @Test
  void targets_bodiesJudgedPerMb() {
    List<Measurement> bodies =
        List.of(run(Via.NGINX, 16 * 1024, 1, 20_000, 30), run(Via.OURS, 16 * 1024, 1, 20_000, 25));
    assertThat(HopTable.targets(bodies)).contains("16KB: CPU per MB <= nginx's in 1 of 1 rounds");
  }

  @Test
  void median_oddEvenAndNaN() {
    assertThat(HopTable.median(List.of(3.0, 1.0, 2.0))).isEqualTo(2.0);
    assertThat(HopTable.median(List.of(4.0, 1.0, 2.0, 3.0))).isEqualTo(2.5);
    assertThat(HopTable.median(List.of(Double.NaN, 5.0))).isEqualTo(5.0);
    assertThat(HopTable.median(List.of())).isNaN();
  }

  @Test
  void measurement_perMbAndPerRequest() {
    Measurement m = run(Via.OURS, 1024 * 1024, 1, 100, 2000);
    assertThat(m.proxyMicrosPerRequest()).isEqualTo(2000.0);
    assertThat(m.proxyMillisPerMb()).isEqualTo(2.0);
    assertThat(m.megabytesPerSecond()).isEqualTo(100.0);
  }
}
