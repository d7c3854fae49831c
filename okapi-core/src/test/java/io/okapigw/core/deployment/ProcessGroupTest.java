package io.okapigw.core.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.testsupport.Await;
import io.okapigw.testsupport.FreePorts;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Undeploy ends what a {@code cmdlineStart} started, whole: also a process that left the module's
 * process group with {@code setsid} (a session and group of its own), while its parent runs and
 * after its parent ended (it was seen as a descendant before; {@link Descendants} says the limit).
 */
class ProcessGroupTest {

  private static final String JAVA =
      Path.of(System.getProperty("java.home"), "bin", "java").toString();
  private static final HttpClient CLIENT = HttpClient.newHttpClient();

  @TempDir Path dir;

  private final int port = FreePorts.belowEphemeralRange();
  private final GatewayFixture gateway;
  private final List<Long> started = new ArrayList<>();

  ProcessGroupTest() {
    GatewayOptions defaults = GatewayOptions.defaults(0);
    gateway =
        new GatewayFixture(
            defaults.withDeployment(
                defaults.deployment().withPorts(port, port + 1).withWaitIterations(40)));
  }

  @AfterEach
  void stop() {
    gateway.gateway().stop().await();
    gateway.close();
    started.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
  }

  private static String tinyModule() throws URISyntaxException {
    return Path.of(ProcessGroupTest.class.getResource("/deployment/TinyModule.java").toURI())
        .toString();
  }

  /** A command that starts {@code sleep 1000} in a session of its own, its pid in {@code name}. */
  private String setsidSleep(String name) {
    return "setsid sh -c 'echo $$ > " + dir.resolve(name) + "; exec sleep 1000' > /dev/null 2>&1 &";
  }

  private void deploy(String cmdlineStart) {
    gateway
        .request()
        .body(
            new JsonObject()
                .put("srvcId", "mod-tiny-1.0.0")
                .put("instId", "g")
                .put("descriptor", new JsonObject().put("cmdlineStart", cmdlineStart))
                .encode())
        .post("/_/deployment/modules")
        .then()
        .statusCode(201);
  }

  private long pid(String name) throws IOException {
    Path file = dir.resolve(name);
    Await.until(() -> read(file).endsWith("\n"), "the pid in " + name);
    long pid = Long.parseLong(Files.readString(file).trim());
    started.add(pid);
    return pid;
  }

  private static String read(Path file) {
    try {
      return Files.exists(file) ? Files.readString(file) : "";
    } catch (IOException e) {
      return "";
    }
  }

  /** Alive and not a zombie (an orphan's zombie waits for whoever reaps it). */
  private static boolean running(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      return !stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
    } catch (IOException e) {
      return false;
    }
  }

  @Test
  void setsidChild_itsParentStillRunning_endedByUndeploy() throws Exception {
    deploy(setsidSleep("sleep.pid") + " exec " + JAVA + " " + tinyModule() + " %p");
    long sleep = pid("sleep.pid");
    assertThat(running(sleep)).isTrue();

    gateway.request().delete("/_/deployment/modules/g").then().statusCode(204);

    assertThat(running(sleep)).as("the setsid child of the module").isFalse();
    assertThat(FreePorts.listening(port)).isFalse();
  }

  @Test
  void setsidChild_itsParentEndedBeforeUndeploy_endedByUndeploy() throws Exception {
    deploy(
        "echo $$ > "
            + dir.resolve("sh.pid")
            + "; "
            + setsidSleep("sleep.pid")
            + " "
            + JAVA
            + " "
            + tinyModule()
            + " %p");
    long shell = pid("sh.pid");
    long sleep = pid("sleep.pid");
    CLIENT.send(
        HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/exit"))
            .timeout(Duration.ofSeconds(30))
            .build(),
        HttpResponse.BodyHandlers.discarding());
    Await.until(() -> !running(shell), "the module and its shell ended");
    assertThat(running(sleep)).as("the setsid child, now init's").isTrue();

    gateway.request().delete("/_/deployment/modules/g").then().statusCode(204);

    assertThat(running(sleep)).as("the setsid child, seen while its parent ran").isFalse();
  }
}
