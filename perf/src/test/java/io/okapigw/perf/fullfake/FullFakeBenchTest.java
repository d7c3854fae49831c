package io.okapigw.perf.fullfake;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.config.Sizes;
import io.okapigw.perf.kit.launch.Launcher;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A tiny full-fake run, everything in this JVM. */
class FullFakeBenchTest {

  private final Vertx vertx = Vertx.vertx();
  @TempDir Path dir;

  @AfterEach
  void close() {
    vertx.close().await();
  }

  @Test
  void tinyRun_oneClient1KBAnd1MB_hasNoErrorsPositiveRpsAndAWarmCache() {
    FullFakeOptions options =
        FullFakeOptions.from(
            FullFakeOptions.SPEC.read(
                List.of(
                    "--in-process",
                    "true",
                    "--clients",
                    "1",
                    "--sizes",
                    "1KB,1MB",
                    "--requests",
                    "8",
                    "--warmup",
                    "4")));
    Launcher launcher = Launcher.inProcess(vertx, dir);
    FullFakeReport report =
        FullFakeBench.run(vertx, launcher, options).eventually(launcher::close).await();

    assertThat(report.cells()).extracting(CellResult::size).containsExactly(Sizes.KB, Sizes.MB);
    for (CellResult cell : report.cells()) {
      assertThat(cell.errors()).as("errors").isZero();
      assertThat(cell.direct().completed()).isEqualTo(8);
      assertThat(cell.gateway().completed()).isEqualTo(8);
      assertThat(cell.direct().rps()).isPositive();
      assertThat(cell.gateway().rps()).isPositive();
      assertThat(cell.gateway().bytes()).isEqualTo(8 * cell.size());
    }
    assertThat(report.cells().get(0).heap()).isNull();
    assertThat(report.cells().get(1).heap().max()).isPositive();
    assertThat(report.authCallsDuringCells()).isZero();
    assertThat(report.table()).contains("| 1 | 1KB | 8 |", "| 1 | 1MB | 8 |");
  }
}
