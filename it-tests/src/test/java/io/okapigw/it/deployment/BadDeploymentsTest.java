package io.okapigw.it.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.it.Jars;
import io.okapigw.it.ReferenceOkapi;
import io.okapigw.it.deployment.SingleServerSequence.Step;
import io.okapigw.testsupport.FreePorts;
import io.okapigw.testsupport.process.StandaloneGateway;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad deployments answered as Okapi 6.1.5 answers them, side by side, each node with one port to
 * deploy on: an unknown {@code srvcId} posted to discovery with a {@code nodeId}, a process that
 * exits at once, the port range used up (through discovery and through {@code
 * /_/deployment/modules}); after each, nothing left running or registered half-way. The gateway's
 * fat jar always; Okapi where it is built (else skipped with a notice).
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class BadDeploymentsTest {

  private static final String MODULE = "mod-users-1.0.0";

  @TempDir Path dir;

  @Test
  void badDeployments_asOkapi_nothingLeftRunningOrRegistered() throws Exception {
    int port = FreePorts.belowEphemeralRange();
    List<Step> ours;
    try (StandaloneGateway gateway = StandaloneGateway.deploying(Jars.gateway(), port, port + 1)) {
      try {
        ours = steps(gateway.url(), port);
      } finally {
        gateway.process().stop();
      }
    }
    System.out.println("bad deployments, ours:\n  " + String.join("\n  ", lines(ours)));
    assertThat(ours)
        .extracting(Step::status)
        .containsExactly(201, 404, 200, 400, 200, 201, 400, 400, 200, 200, 204, 200, 200);
    assertThat(ours.get(3).answer().toString()).contains("exit code 1");
    assertThat(ours.get(6).answer().toString()).contains("all ports in use");
    assertThat(FreePorts.listening(port))
        .as("the module's port after the gateway stopped")
        .isFalse();

    Optional<ReferenceOkapi> okapi = ReferenceOkapi.v615();
    if (okapi.isEmpty()) {
      System.err.println("NOTICE: Okapi 6.1.5 not built: the side-by-side run is skipped");
      return;
    }
    List<Step> okapis = OkapiRun.with(okapi.get(), dir, 1, url -> steps(url, -1));
    assertThat(lines(okapis)).as("Okapi 6.1.5's answers").isEqualTo(lines(ours));
  }

  /**
   * @param port the node's one port, checked free after each failure (-1: not checked)
   */
  private static List<Step> steps(String url, int port) {
    List<Step> steps = new ArrayList<>();
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    JsonObject launch = Registry.exec("mod-users").put("waitIterations", 60);
    send(
        steps,
        url,
        "POST",
        "/_/proxy/modules",
        new JsonObject().put("id", MODULE).put("launchDescriptor", launch));
    send(
        steps,
        url,
        "POST",
        "/_/discovery/modules",
        new JsonObject()
            .put("srvcId", "mod-nope-1.0.0")
            .put("instId", "nope")
            .put("nodeId", "localhost"));
    send(steps, url, "GET", "/_/discovery/modules", null);
    send(
        steps,
        url,
        "POST",
        "/_/deployment/modules",
        new JsonObject()
            .put("srvcId", MODULE)
            .put("instId", "dies")
            .put(
                "descriptor",
                new JsonObject().put("exec", java + " -cp /nonexistent NoSuchMain %p")));
    send(steps, url, "GET", "/_/deployment/modules", null);
    checkFree(port);
    send(
        steps,
        url,
        "POST",
        "/_/discovery/modules",
        new JsonObject().put("srvcId", MODULE).put("instId", "a").put("nodeId", "localhost"));
    send(
        steps,
        url,
        "POST",
        "/_/discovery/modules",
        new JsonObject().put("srvcId", MODULE).put("instId", "b").put("nodeId", "localhost"));
    send(
        steps,
        url,
        "POST",
        "/_/deployment/modules",
        new JsonObject().put("srvcId", MODULE).put("instId", "c").put("descriptor", launch));
    send(steps, url, "GET", "/_/deployment/modules", null);
    send(steps, url, "GET", "/_/discovery/modules", null);
    send(steps, url, "DELETE", "/_/discovery/modules/" + MODULE + "/a", null);
    send(steps, url, "GET", "/_/deployment/modules", null);
    send(steps, url, "GET", "/_/discovery/modules", null);
    checkFree(port);
    return steps;
  }

  private static void send(List<Step> steps, String url, String method, String path, Object body) {
    steps.add(SingleServerSequence.step(url, method, path, body));
  }

  private static void checkFree(int port) {
    if (port > 0) {
      assertThat(FreePorts.listening(port)).as("port %d: nothing left running", port).isFalse();
    }
  }

  private static List<String> lines(List<Step> steps) {
    return steps.stream().map(Step::toString).toList();
  }
}
