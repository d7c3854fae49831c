package io.okapigw.authtoken.bench;

import io.okapigw.testsupport.FreePorts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The module's fat jar run as a separate process, as in production. */
final class ServerProcess implements AutoCloseable {
  private final Process process;
  private final Path log;
  final int port;

  private ServerProcess(Process process, Path log, int port) {
    this.process = process;
    this.log = log;
    this.port = port;
  }

  static ServerProcess start(Path jar, Path dir, List<String> args) throws Exception {
    int port = FreePorts.belowEphemeralRange();
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx1g",
                "-jar",
                jar.toString(),
                "--port",
                String.valueOf(port),
                "--host",
                "127.0.0.1"));
    command.addAll(args);
    Path log = dir.resolve("server.log");
    Process process =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    ServerProcess server = new ServerProcess(process, log, port);
    Runtime.getRuntime().addShutdownHook(new Thread(process::destroyForcibly));
    server.awaitListening();
    return server;
  }

  private void awaitListening() throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (!Files.readString(log).contains("listening on")) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        process.destroyForcibly();
        throw new IllegalStateException("server did not start:\n" + Files.readString(log));
      }
      process.waitFor(50, TimeUnit.MILLISECONDS);
    }
  }

  long pid() {
    return process.pid();
  }

  @Override
  public void close() throws Exception {
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }
}
