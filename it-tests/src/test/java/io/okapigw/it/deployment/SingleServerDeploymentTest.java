package io.okapigw.it.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.it.Jars;
import io.okapigw.it.ReferenceOkapi;
import io.okapigw.it.deployment.SingleServerSequence.Step;
import io.okapigw.testsupport.FreePorts;
import io.okapigw.testsupport.process.StandaloneGateway;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * FOLIO's single-server path with modules the gateway starts as processes ({@code exec}, runs
 * everywhere): {@link SingleServerSequence} against the gateway's fat jar, pulling from a local
 * registry ({@link Registry}: a real Okapi 6.1.5, as FOLIO's registry is, where it is built); then,
 * where Okapi 6.1.5 is built, the same sequence against another Okapi 6.1.5 pulling from the same
 * registry, step for step the same statuses, deployments and discovery (else skipped with a
 * notice). The gateway stopped, nothing it started runs any more.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class SingleServerDeploymentTest {

  private static final int PORTS = 10;

  @TempDir Path dir;

  @Test
  void singleServer_processes_asOkapi() throws Exception {
    try (Registry registry = Registry.start(Registry::exec)) {
      int ours = freeRange();
      List<Step> ourSteps;
      StandaloneGateway gateway = StandaloneGateway.deploying(Jars.gateway(), ours, ours + PORTS);
      try {
        ourSteps = SingleServerSequence.run(gateway.url(), registry.url());
      } finally {
        gateway.process().stop();
        gateway.close();
      }
      System.out.println(
          "single-server sequence, ours:\n  " + String.join("\n  ", lines(ourSteps)));
      assertThat(ourSteps)
          .extracting(Step::status)
          .containsExactly(
              200, 201, 201, 201, 201, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 204,
              200, 200, 404);
      assertThat(ourSteps.get(8).answer().toString())
          .contains("mod-inventory-storage-27.2.0", "mod-circulation-storage-17.3.0", "localhost");
      for (int port = ours; port < ours + PORTS; port++) {
        assertThat(FreePorts.listening(port))
            .as("port %d after the gateway stopped", port)
            .isFalse();
      }

      Optional<ReferenceOkapi> okapi = ReferenceOkapi.v615();
      if (okapi.isEmpty()) {
        System.err.println("NOTICE: Okapi 6.1.5 not built: the side-by-side run is skipped");
        return;
      }
      List<Step> okapiSteps = OkapiRun.sequence(okapi.get(), registry.url(), dir);
      assertThat(lines(okapiSteps)).as("Okapi 6.1.5's answers").isEqualTo(lines(ourSteps));
    }
  }

  private static List<String> lines(List<Step> steps) {
    return steps.stream().map(Step::toString).toList();
  }

  /** The first of {@value #PORTS} ports nothing listens on now. */
  private static int freeRange() {
    for (int i = 0; i < 50; i++) {
      int start = FreePorts.belowEphemeralRange();
      boolean free = true;
      for (int port = start; port < start + PORTS && free; port++) {
        free = !FreePorts.listening(port);
      }
      if (free && start + PORTS < 32_768) {
        return start;
      }
    }
    throw new IllegalStateException("no range of " + PORTS + " free ports");
  }
}
