package io.okapigw.perf.load.faults;

import io.okapigw.folio.containers.Main;
import io.okapigw.perf.kit.process.Children;
import io.okapigw.perf.kit.process.Connections;
import io.okapigw.perf.kit.process.OwnJvm;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One more instance of the simulated mod-users, in a JVM of its own that can be killed: the {@code
 * modules} program of folio-modules (the same generated library as the {@link Stage}'s, so its
 * users are the same) on fixed ports, of which only mod-users, the first module ({@code port + 1}),
 * is registered. Ready when its manifest answers.
 */
final class ModuleInstance {

  private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

  private final Children children;
  private final String name;
  private final int manifestPort;
  private Process process;
  private int starts;

  ModuleInstance(Children children, String name, int manifestPort) {
    this.children = children;
    this.name = name;
    this.manifestPort = manifestPort;
  }

  /** Starts it and waits until it answers. */
  void start() throws IOException, InterruptedException {
    String log = name + "-" + ++starts;
    List<String> command = new ArrayList<>(List.of(OwnJvm.java().toString()));
    command.addAll(
        OwnJvm.javaArgs(
            List.of("-Xmx128m"),
            Main.class,
            List.of(
                "modules",
                "--host",
                "127.0.0.1",
                "--advertise-host",
                "127.0.0.1",
                "--port",
                Integer.toString(manifestPort),
                "--patrons",
                Integer.toString(Stage.PATRONS),
                "--items",
                Integer.toString(Stage.ITEMS))));
    process = children.start(log, command);
    children.awaitReady(
        log, process, "http://127.0.0.1:" + manifestPort + "/health", START_TIMEOUT);
  }

  /** kill -9, and waits for its end. */
  void kill() throws InterruptedException {
    process.destroyForcibly().waitFor();
  }

  /**
   * @return mod-users's port
   */
  int usersPort() {
    return manifestPort + 1;
  }

  String usersUrl() {
    return "http://127.0.0.1:" + usersPort();
  }

  /**
   * @return whether anything (the gateway) is connected to its mod-users now
   */
  boolean connected() {
    return Connections.established(usersPort()) > 0;
  }
}
