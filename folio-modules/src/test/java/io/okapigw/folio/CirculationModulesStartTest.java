package io.okapigw.folio;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.folio.data.CirculationData;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Starting the modules from an event loop (as the demo does, in the continuation of the gateway's
 * start) leaves the loop free while the library is generated and the descriptors are read: in the
 * demo's log on a loaded machine that work held the event loop 4.6 s (issue 48). Shown by where the
 * work runs, not by how long it takes.
 */
class CirculationModulesStartTest {

  private static final CirculationData.Options SMALL =
      new CirculationData.Options(CirculationData.Options.DEFAULT_SEED, 5, 5);

  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() {
    vertx.close().await();
  }

  @Test
  void start_fromAnEventLoop_preparesTheLibraryOnAWorker_thenDeploysEveryModule() {
    List<Boolean> preparedOnEventLoop = new ArrayList<>();
    Promise<CirculationModules> started = Promise.promise();
    vertx.runOnContext(
        v ->
            CirculationModules.start(
                    vertx,
                    () -> {
                      preparedOnEventLoop.add(Context.isOnEventLoopThread());
                      return CirculationModules.prepare(SMALL);
                    },
                    Duration.ofSeconds(10),
                    "127.0.0.1",
                    0)
                .onComplete(started));

    CirculationModules modules = started.future().await();

    assertThat(preparedOnEventLoop).containsExactly(false);
    assertThat(modules.deployments()).hasSizeGreaterThan(5);
    assertThat(modules.data().items()).hasSize(5);
    modules.close().await();
  }

  @Test
  void startOne_ofAModuleThatDoesNotExist_failsNamingIt() {
    Future<ModuleDeployment> one =
        CirculationModules.startOne(
            vertx, SMALL, Duration.ofSeconds(10), "127.0.0.1", 0, "mod-nothing");

    assertThat(one.toCompletionStage().toCompletableFuture())
        .failsWithin(Duration.ofMinutes(1))
        .withThrowableThat()
        .withMessageContaining("no simulated module mod-nothing");
  }
}
