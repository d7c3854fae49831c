package io.okapigw.perf.anonymousflood;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.perf.kit.launch.Launcher;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A smoke run of anonymous-flood, everything in this JVM (counts only, no latency). */
class AnonymousFloodBenchTest {

  private final Vertx vertx = Vertx.vertx();
  @TempDir Path dir;

  @AfterEach
  void close() {
    vertx.close().await();
  }

  @Test
  void smokeRun_usersNeverRefused_everyFloodRequestRefused() {
    AnonymousFloodOptions options =
        AnonymousFloodOptions.from(
            AnonymousFloodOptions.SPEC.read(
                List.of(
                    "--in-process",
                    "true",
                    "--clients",
                    "2",
                    "--flood-clients",
                    "8",
                    "--max-in-flight",
                    "4",
                    "--requests",
                    "40",
                    "--rounds",
                    "2",
                    "--warmup",
                    "5")));
    Launcher launcher = Launcher.inProcess(vertx, dir);
    AnonymousFloodReport report =
        AnonymousFloodBench.run(vertx, launcher, options).eventually(launcher::close).await();

    assertThat(report.alone().completed()).isEqualTo(40);
    assertThat(report.users().completed()).isEqualTo(40);
    assertThat(report.alone().errors()).isZero();
    assertThat(report.users().errors()).as("users refused during the flood").isZero();
    assertThat(report.flood().completed()).isPositive();
    assertThat(report.flood().errors()).isEqualTo(report.flood().completed());
    assertThat(report.flood().firstError()).isEqualTo("status 401");
    assertThat(report.table()).contains("| users during the flood | 2 | 40 |");
  }
}
