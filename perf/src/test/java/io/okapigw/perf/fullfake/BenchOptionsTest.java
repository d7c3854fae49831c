package io.okapigw.perf.fullfake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.okapigw.config.Settings;
import io.okapigw.perf.parallelauth.ParallelAuthOptions;
import io.vertx.core.buffer.Buffer;
import java.util.List;
import org.junit.jupiter.api.Test;

class BenchOptionsTest {

  private static FullFakeOptions fullfake(String... args) {
    return FullFakeOptions.from(Settings.fromArgs(List.of(args)));
  }

  @Test
  void fullfake_defaults_areTheIssuesMatrix() {
    FullFakeOptions options = fullfake("--in-process", "true");
    assertThat(options.clients()).containsExactly(1, 5, 10, 15, 20);
    assertThat(options.sizes())
        .containsExactly(
            ByteSize.KB,
            16 * ByteSize.KB,
            256 * ByteSize.KB,
            ByteSize.MB,
            16 * ByteSize.MB,
            256 * ByteSize.MB);
    assertThat(options.requests()).isEqualTo(2000);
  }

  @Test
  void requestsFor_bigBodies_staysWithinTheByteBudgetButAboveTheMinimum() {
    FullFakeOptions options = fullfake("--in-process", "true", "--max-bytes-per-cell", "1GB");
    assertThat(options.requestsFor(ByteSize.KB)).isEqualTo(2000);
    assertThat(options.requestsFor(ByteSize.MB)).isEqualTo(1024);
    assertThat(options.requestsFor(16 * ByteSize.MB)).isEqualTo(64);
    assertThat(options.requestsFor(256 * ByteSize.MB)).isEqualTo(4);
    assertThat(options.requestsFor(4 * ByteSize.GB)).isEqualTo(4);
  }

  @Test
  void badFlags_failNamingTheFlag() {
    assertThatThrownBy(() -> fullfake("--in-process", "true", "--clients", "1,0"))
        .hasMessageContaining("clients");
    assertThatThrownBy(() -> fullfake("--in-process", "true", "--sizes", "1KB,big"))
        .hasMessageContaining("sizes");
    assertThatThrownBy(() -> fullfake("--in-process", "true", "--gateway-heap", "lots"))
        .hasMessageContaining("gateway-heap");
    assertThatThrownBy(() -> fullfake("--in-process", "true", "--colour", "red"))
        .hasMessageContaining("colour");
    assertThatThrownBy(() -> fullfake("--gateway-jar", "/nonexistent/gw.jar"))
        .hasMessageContaining("gateway-jar");
    assertThatThrownBy(
            () ->
                ParallelAuthOptions.from(
                    Settings.fromArgs(List.of("--in-process", "true", "--handler-delay", "soon"))))
        .hasMessageContaining("handler-delay");
    assertThatThrownBy(
            () ->
                ParallelAuthOptions.from(
                    Settings.fromArgs(
                        List.of("--in-process", "true", "--requests", "3", "--rounds", "4"))))
        .hasMessageContaining("rounds");
  }

  @Test
  void parallelAuth_requestsSplitIntoRounds_addUpToRequests() {
    ParallelAuthOptions options =
        ParallelAuthOptions.from(
            Settings.fromArgs(
                List.of(
                    "--in-process",
                    "true",
                    "--requests",
                    "1002",
                    "--rounds",
                    "5",
                    "--warmup",
                    "0")));
    int total = 0;
    for (int round = 0; round < options.rounds(); round++) {
      total += options.requestsInRound(round);
    }
    assertThat(total).isEqualTo(1002);
    assertThat(options.tokensNeeded()).isEqualTo(3 * 3 * 1002);
  }

  @Test
  void byteSize_parsesBinaryUnits_andFormatsBack() {
    assertThat(ByteSize.parse("sizes", "16KB")).isEqualTo(16384);
    assertThat(ByteSize.parse("sizes", "256mb")).isEqualTo(256 * ByteSize.MB);
    assertThat(ByteSize.parse("sizes", "7")).isEqualTo(7);
    assertThat(ByteSize.format(256 * ByteSize.MB)).isEqualTo("256MB");
    assertThat(ByteSize.format(1000)).isEqualTo("1000B");
  }

  @Test
  void heapOf_sumsTheHeapAreasOnly() {
    String metrics =
        """
        jvm_memory_used_bytes{area="heap",id="G1 Eden Space"} 1000.0
        jvm_memory_used_bytes{area="heap",id="G1 Old Gen"} 2.5E3
        jvm_memory_used_bytes{area="nonheap",id="Metaspace"} 99999.0
        """;
    assertThat(GatewayProbe.heapOf(Buffer.buffer(metrics))).isEqualTo(3500);
  }
}
