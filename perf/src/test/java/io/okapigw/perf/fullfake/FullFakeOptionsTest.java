package io.okapigw.perf.fullfake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.okapigw.config.Sizes;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The settings of fullfake as the docs write them, and bad ones by name. */
class FullFakeOptionsTest {

  private static FullFakeOptions fullfake(String... args) {
    return FullFakeOptions.from(FullFakeOptions.SPEC.read(List.of(args)));
  }

  @Test
  void fullfake_defaults_areTheIssuesMatrix() {
    FullFakeOptions options = fullfake("--in-process", "true");
    assertThat(options.clients()).containsExactly(1, 5, 10, 15, 20);
    assertThat(options.sizes())
        .containsExactly(
            Sizes.KB, 16 * Sizes.KB, 256 * Sizes.KB, Sizes.MB, 16 * Sizes.MB, 256 * Sizes.MB);
    assertThat(options.requests()).isEqualTo(2000);
    assertThat(options.launch().gatewayHeap()).isEqualTo("256m");
  }

  @Test
  void fullfake_documentedExamples_read() {
    FullFakeOptions options =
        fullfake(
            "--in-process",
            "--clients",
            "1,5,10,15,20",
            "--sizes",
            "1KB,16KB,256KB,1MB,16MB,256MB",
            "--requests",
            "2000",
            "--max-bytes-per-cell",
            "1GB",
            "--min-requests",
            "4",
            "--cell-time-limit",
            "60s",
            "--warmup",
            "1000",
            "--gateway-heap",
            "256m");
    assertThat(options.launch().inProcess()).isTrue();
    assertThat(options.sizes()).hasSize(6).last().isEqualTo(256 * Sizes.MB);
    assertThat(options.maxBytesPerCell()).isEqualTo(Sizes.GB);
    assertThat(options.cellTimeLimit()).isEqualTo(Duration.ofSeconds(60));
    assertThat(fullfake("--in-process", "--sizes", "1KiB,16mb,512").sizes())
        .containsExactly(Sizes.KB, 16 * Sizes.MB, 512L);
  }

  @Test
  void requestsFor_bigBodies_staysWithinTheByteBudgetButAboveTheMinimum() {
    FullFakeOptions options = fullfake("--in-process", "true", "--max-bytes-per-cell", "1GB");
    assertThat(options.requestsFor(Sizes.KB)).isEqualTo(2000);
    assertThat(options.requestsFor(Sizes.MB)).isEqualTo(1024);
    assertThat(options.requestsFor(16 * Sizes.MB)).isEqualTo(64);
    assertThat(options.requestsFor(256 * Sizes.MB)).isEqualTo(4);
    assertThat(options.requestsFor(4 * Sizes.GB)).isEqualTo(4);
  }

  @Test
  void badValues_failNamingTheSetting() {
    assertThatThrownBy(() -> fullfake("--in-process", "true", "--clients", "1,0"))
        .hasMessage("clients must be between 1 and 256 each, was '1,0'");
    assertThatThrownBy(() -> fullfake("--in-process", "true", "--sizes", "1KB,big"))
        .hasMessageStartingWith("sizes must be sizes separated by commas")
        .hasMessageEndingWith("was '1KB,big'");
    assertThatThrownBy(() -> fullfake("--in-process", "true", "--sizes", "1KB,5GB"))
        .hasMessage("sizes must be between 0 and 4GB each, was '1KB,5GB'");
    assertThatThrownBy(() -> fullfake("--in-process", "true", "--gateway-heap", "lots"))
        .hasMessage("gateway-heap must be a JVM heap size such as 256m or 1g, was 'lots'");
    assertThatThrownBy(() -> fullfake("--in-process", "true", "--cell-time-limit", "60"))
        .hasMessageStartingWith("cell-time-limit must be a duration");
    assertThatThrownBy(() -> fullfake("--in-process", "true", "--colour", "red"))
        .hasMessageStartingWith("unknown setting 'colour'");
    assertThatThrownBy(() -> fullfake("--gateway-jar", "/nonexistent/gw.jar"))
        .hasMessageStartingWith("gateway-jar: /nonexistent/gw.jar is missing");
  }
}
