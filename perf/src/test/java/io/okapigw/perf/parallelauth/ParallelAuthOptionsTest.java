package io.okapigw.perf.parallelauth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The settings of parallel-auth as the docs write them. */
class ParallelAuthOptionsTest {

  private static ParallelAuthOptions parallelAuth(String... args) {
    return ParallelAuthOptions.from(ParallelAuthOptions.SPEC.read(List.of(args)));
  }

  @Test
  void parallelAuth_documentedExample_read() {
    ParallelAuthOptions options =
        parallelAuth(
            "--in-process",
            "true",
            "--clients",
            "1,8,32",
            "--requests",
            "1000",
            "--rounds",
            "5",
            "--handler-delay",
            "5ms",
            "--warmup",
            "300",
            "--run-time-limit",
            "60s");
    assertThat(options.clients()).containsExactly(1, 8, 32);
    assertThat(options.handlerDelay()).isEqualTo(Duration.ofMillis(5));
  }

  @Test
  void parallelAuth_requestsSplitIntoRounds_addUpToRequests() {
    ParallelAuthOptions options =
        parallelAuth(
            "--in-process", "true", "--requests", "1002", "--rounds", "5", "--warmup", "0");
    int total = 0;
    for (int round = 0; round < options.rounds(); round++) {
      total += options.requestsInRound(round);
    }
    assertThat(total).isEqualTo(1002);
    assertThat(options.tokensNeeded()).isEqualTo(3 * 3 * 1002);
  }

  @Test
  void badValues_failNamingTheSetting() {
    assertThatThrownBy(() -> parallelAuth("--in-process", "true", "--handler-delay", "soon"))
        .hasMessageStartingWith("handler-delay must be a duration");
    assertThatThrownBy(() -> parallelAuth("--in-process", "true", "--handler-delay", "11s"))
        .hasMessage("handler-delay must be between 0 and 10s, was '11s'");
    assertThatThrownBy(
            () -> parallelAuth("--in-process", "true", "--requests", "3", "--rounds", "4"))
        .hasMessage("rounds must be at most requests (3), was 4");
  }
}
