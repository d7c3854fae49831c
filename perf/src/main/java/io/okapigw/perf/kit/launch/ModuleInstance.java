package io.okapigw.perf.kit.launch;

import io.okapigw.folio.containers.Main;
import io.okapigw.perf.kit.process.Children;
import io.okapigw.perf.kit.process.Connections;
import io.okapigw.perf.kit.process.OwnJvm;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One more instance of the simulated mod-users, in a JVM of its own that can be killed, stopped
 * (SIGSTOP) and let go on: the {@code modules} program of folio-modules (the same generated library
 * as the demo's of as many patrons and items, so its users are the same) on fixed ports, of which
 * only mod-users, the first module ({@code port + 1}), is registered. Ready when its manifest
 * answers.
 */
public final class ModuleInstance {

  private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
  private static final HttpClient HTTP =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(1))
          .build();

  private final Children children;
  private final String name;
  private final int manifestPort;
  private final int size;
  private final Duration latency;
  private Path jar;
  private Process process;
  private int starts;

  /**
   * @param name its name in the logs
   * @param manifestPort the manifest's port; its modules listen on the ten ports after it
   * @param size patrons and items of its library (the demo's, of as many)
   */
  public ModuleInstance(Children children, String name, int manifestPort, int size) {
    this(children, name, manifestPort, size, Duration.ZERO);
  }

  /**
   * @param latency how late it answers every call (a slow instance); zero for at once
   */
  public ModuleInstance(
      Children children, String name, int manifestPort, int size, Duration latency) {
    this.children = children;
    this.name = name;
    this.manifestPort = manifestPort;
    this.size = size;
    this.latency = latency;
  }

  /**
   * Runs it from folio-modules' fat jar ({@code folio-modules/target/folio-modules-fat.jar}), not
   * from this program's class path (a test's, say, whose class path a JVM of its own cannot take).
   *
   * @return this
   */
  public ModuleInstance fromJar(Path folioModulesJar) {
    this.jar = folioModulesJar;
    return this;
  }

  /** Starts it and waits until it answers. */
  public void start() throws IOException, InterruptedException {
    String log = name + "-" + ++starts;
    List<String> command = new ArrayList<>(List.of(OwnJvm.java().toString()));
    List<String> args =
        List.of(
            "modules",
            "--host",
            "127.0.0.1",
            "--advertise-host",
            "127.0.0.1",
            "--port",
            Integer.toString(manifestPort),
            "--patrons",
            Integer.toString(size),
            "--items",
            Integer.toString(size),
            "--latency",
            latency.toMillis() + "ms");
    if (jar == null) {
      command.addAll(OwnJvm.javaArgs(List.of("-Xmx128m"), Main.class, args));
    } else {
      command.addAll(List.of("-Xmx128m", "-jar", jar.toString()));
      command.addAll(args);
    }
    process = children.start(log, command);
    children.awaitReady(
        log, process, "http://127.0.0.1:" + manifestPort + "/health", START_TIMEOUT);
  }

  /** kill -9, and waits for its end. */
  public void kill() throws InterruptedException {
    process.destroyForcibly().waitFor();
  }

  /**
   * Stops it (SIGSTOP): a hung instance — the kernel still accepts connections on its ports, it
   * answers nothing — until {@link #resume}.
   */
  public void pause() throws IOException, InterruptedException {
    signal("STOP");
  }

  /** Lets it go on after {@link #pause} (SIGCONT). */
  public void resume() throws IOException, InterruptedException {
    signal("CONT");
  }

  private void signal(String signal) throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start();
    if (!kill.waitFor(30, TimeUnit.SECONDS) || kill.exitValue() != 0) {
      throw new IOException("kill -" + signal + " " + process.pid() + " failed");
    }
  }

  /**
   * @return the requests its modules' handlers took so far (its manifest's {@code /health}); -1 if
   *     it does not answer within a second (stopped, say)
   */
  public long served() {
    try {
      HttpResponse<String> health =
          HTTP.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + manifestPort + "/health"))
                  .timeout(Duration.ofSeconds(1))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      return new JsonObject(health.body()).getLong("served", -1L);
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  /**
   * @return mod-users's port
   */
  public int usersPort() {
    return manifestPort + 1;
  }

  /**
   * @return mod-users's URL, for the gateway's discovery
   */
  public String usersUrl() {
    return "http://127.0.0.1:" + usersPort();
  }

  /**
   * @return whether anything (the gateway) is connected to its mod-users now
   */
  public boolean connected() {
    return Connections.established(usersPort()) > 0;
  }
}
