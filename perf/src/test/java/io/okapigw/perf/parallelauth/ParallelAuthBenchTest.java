package io.okapigw.perf.parallelauth;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.perf.kit.launch.Launcher;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A smoke run of parallel-auth, everything in this JVM. */
class ParallelAuthBenchTest {

  private final Vertx vertx = Vertx.vertx();
  @TempDir Path dir;

  @AfterEach
  void close() {
    vertx.close().await();
  }

  @Test
  void smokeRun_everyGatewayRequestWithANewToken_isOneMissAndOneAuthCall() {
    ParallelAuthOptions options =
        ParallelAuthOptions.from(
            ParallelAuthOptions.SPEC.read(
                List.of(
                    "--in-process",
                    "true",
                    "--clients",
                    "1,2",
                    "--requests",
                    "6",
                    "--rounds",
                    "2",
                    "--warmup",
                    "2",
                    "--handler-delay",
                    "5ms")));
    Launcher launcher = Launcher.inProcess(vertx, dir);
    ParallelAuthReport report =
        ParallelAuthBench.run(vertx, launcher, options).eventually(launcher::close).await();

    assertThat(report.runs()).hasSize(2 * Route.values().length);
    for (RunResult run : report.runs()) {
      assertThat(run.load().errors()).as(run.route().label()).isZero();
      assertThat(run.load().completed()).isEqualTo(6);
    }
    List<RunResult> misses =
        report.runs().stream()
            .filter(r -> r.route() == Route.SEQUENTIAL || r.route() == Route.PARALLEL)
            .toList();
    assertThat(misses)
        .hasSize(4)
        .allSatisfy(
            r -> {
              assertThat(r.cache().misses()).isEqualTo(6);
              assertThat(r.cache().authCalls()).isEqualTo(6);
            });
    assertThat(report.runs())
        .filteredOn(r -> r.route() == Route.HIT)
        .allSatisfy(r -> assertThat(r.cache().authCalls()).isZero());
    assertThat(report.runs())
        .filteredOn(r -> r.route() == Route.HANDLER)
        .allSatisfy(r -> assertThat(r.load().duration().mean()).isGreaterThanOrEqualTo(5.0));
    assertThat(report.targets()).contains("was one cache miss and one auth call: yes");
  }
}
