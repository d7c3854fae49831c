package io.okapigw.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.demo.DemoOptions;
import io.okapigw.demo.Library;
import io.okapigw.folio.register.SuperAdmin;
import io.okapigw.perf.kit.launch.Discovery;
import io.okapigw.perf.kit.launch.ModuleInstance;
import io.okapigw.perf.kit.process.Children;
import io.okapigw.perf.load.BarcodeRows;
import io.okapigw.perf.load.LoadDriver;
import io.okapigw.perf.load.LoadPlan;
import io.okapigw.perf.load.PhaseFigures;
import io.okapigw.testsupport.FreePorts;
import io.okapigw.testsupport.process.StandaloneGateway;
import io.vertx.core.Vertx;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 34's second finding on real processes, the gateway on its default settings: mod-users,
 * which every check-out calls, as three instances, each a JVM of its own; one stopped (SIGSTOP: it
 * accepts connections and answers nothing) while users check items out and in. Only the operations
 * that started in the first 2 s may fail (their calls were in flight, or went, to it before the
 * gateway could tell); none that started later does — not even once its callers have given up the
 * calls it holds (10 s), when it looked idle before. Failures are counted, latencies not asserted.
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class InstanceHangTest {

  private static final int USERS = 4;
  private static final int SIZE = 200;
  private static final Duration FIRST = Duration.ofSeconds(2);

  @TempDir Path dir;

  private final Vertx vertx = Vertx.vertx();
  private final List<ModuleInstance> instances = new ArrayList<>();
  private StandaloneGateway gateway;
  private Children children;
  private Library library;

  @AfterEach
  void stop() throws Exception {
    if (children != null) {
      children.close();
    }
    if (library != null) {
      library.close().await(1, TimeUnit.MINUTES);
    }
    if (gateway != null) {
      gateway.close();
    }
    vertx.close().await(1, TimeUnit.MINUTES);
  }

  @Test
  void oneOfThreeInstancesStopped_noOperationStartedAfterTwoSecondsFails() throws Exception {
    gateway = StandaloneGateway.start(Jars.gateway(), List.of());
    String url = gateway.url();
    library =
        Library.start(vertx, new DemoOptions(0, SIZE, SIZE, true, true, dir), url)
            .await(2, TimeUnit.MINUTES);
    children = new Children(Files.createDirectories(dir.resolve("logs")));
    for (int i = 1; i <= 3; i++) {
      ModuleInstance instance =
          new ModuleInstance(children, "mod-users-" + i, FreePorts.belowEphemeralRange(), SIZE)
              .fromJar(Jars.folioModules());
      instance.start();
      instances.add(instance);
    }
    SuperAdmin admin = Library.superAdmin();
    String token = AdminCalls.login(url, SuperAdmin.TENANT, admin.username(), admin.password());
    new Discovery(url, token)
        .replace(
            library.modules().deployment("mod-users").id(),
            instances.stream().map(ModuleInstance::usersUrl).toList());
    LoadDriver driver =
        LoadDriver.start(
                vertx,
                new LoadPlan(
                    List.of(URI.create(url)),
                    DemoOptions.TENANT,
                    DemoOptions.ADMIN,
                    DemoOptions.ADMIN_PASSWORD,
                    USERS,
                    Duration.ofSeconds(3),
                    Duration.ofSeconds(10),
                    0,
                    100_000),
                BarcodeRows.of(library.data()),
                DemoOptions.TENANT)
            .await(2, TimeUnit.MINUTES);

    instances.get(2).pause();
    List<PhaseFigures> hung;
    try {
      hung = driver.phase(Duration.ofSeconds(25), FIRST).await(3, TimeUnit.MINUTES);
    } finally {
      instances.get(2).resume();
    }
    driver.finish().await(2, TimeUnit.MINUTES);

    PhaseFigures later = hung.get(1);
    assertThat(later.both().count()).as("operations started after the first 2 s").isPositive();
    assertThat(later.errors())
        .as(
            "operations started 2 s or more after the stop that failed (%s); in the first 2 s: %s",
            later.errorKindsText(), hung.get(0).errorKindsText())
        .isZero();
  }
}
