package io.okapigw.perf.kit.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ProcStatTest {

  private static final String NGINX =
      "4242 (nginx) S 4241 4241 4241 0 -1 4194624 205 0 0 0 123 45 0 0 20 0 1 0 777 10915840"
          + " 1234 18446744073709551615 1 1 0 0 0 0 0 4096 0 0 0 0 17 1 0 0 0 0 0";

  @Test
  void cpuTicks_sumsUserAndSystemTime() {
    assertThat(ProcStat.cpuTicks(NGINX)).isEqualTo(123 + 45);
    assertThat(ProcStat.systemTicks(NGINX)).isEqualTo(45);
  }

  @Test
  void cpuTicks_commandNameWithSpacesAndParentheses() {
    String stat = NGINX.replace("(nginx)", "(a (b) c)");
    assertThat(ProcStat.cpuTicks(stat)).isEqualTo(168);
  }

  @Test
  void cpuTicks_notAStatLine_fails() {
    assertThatThrownBy(() -> ProcStat.cpuTicks("hello"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("/proc/PID/stat");
    assertThatThrownBy(() -> ProcStat.cpuTicks("1 (x) S 2 3"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void memoryBytes_readsKilobytesAsBytes() {
    String status = "Name:\tjava\nVmHWM:\t  300000 kB\nVmRSS:\t  262144 kB\nThreads:\t30\n";
    assertThat(ProcStat.memoryBytes(status, "VmRSS")).isEqualTo(262144L * 1024);
    assertThat(ProcStat.memoryBytes(status, "VmHWM")).isEqualTo(300000L * 1024);
    assertThat(ProcStat.memoryBytes(status, "VmSwap")).isEqualTo(-1);
  }

  @Test
  void cpuNanos_ownProcessIsCharged_goneProcessCountsZero() {
    long self = ProcessHandle.current().pid();
    assertThat(ProcStat.cpuNanos(List.of(self))).isPositive();
    assertThat(ProcStat.cpuNanos(List.of(Long.MAX_VALUE))).isZero();
    assertThat(ProcStat.rssBytes(self)).isPositive();
  }
}
