package io.okapigw.it;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** A fat jar of this project running in its own JVM, killed when closed. */
final class JavaProcess implements AutoCloseable {

  private final Process process;
  private final Path log;

  private JavaProcess(Process process, Path log) {
    this.process = process;
    this.log = log;
  }

  /** @return the project root (set by Maven; the working directory's parent otherwise) */
  static Path root() {
    return Path.of(System.getProperty("okapigw.root", "..")).toAbsolutePath().normalize();
  }

  /**
   * Starts {@code java <jvmArgs> -jar <jar> <args>} and waits until {@code readyUrl} answers.
   *
   * @param jar path relative to the project root
   */
  static JavaProcess start(String jar, List<String> jvmArgs, List<String> args, String readyUrl)
      throws IOException {
    JavaProcess started = launch(jar, jvmArgs, args);
    started.awaitReady(readyUrl, Duration.ofSeconds(60));
    return started;
  }

  /** Starts {@code java <jvmArgs> -jar <jar> <args>} without waiting for it. */
  static JavaProcess launch(String jar, List<String> jvmArgs, List<String> args)
      throws IOException {
    Path jarPath = root().resolve(jar);
    if (!Files.exists(jarPath)) {
      throw new IllegalStateException(jarPath + " is missing: run mvn verify from the project root"
          + " (the reactor packages it before it-tests)");
    }
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmArgs);
    command.add("-jar");
    command.add(jarPath.toString());
    command.addAll(args);
    Path log = Files.createTempFile("okapigw-it-", ".log");
    Process process = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
    return new JavaProcess(process, log);
  }

  static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  /** Waits until {@code url} answers 200; kills the process and fails if it doesn't in time. */
  void awaitReady(String url, Duration timeout) throws IOException {
    Instant deadline = Instant.now().plus(timeout);
    while (Instant.now().isBefore(deadline)) {
      if (!process.isAlive()) {
        throw new IllegalStateException("process exited with " + process.exitValue() + ":\n"
            + Files.readString(log));
      }
      if (answers(url)) {
        return;
      }
      try {
        process.waitFor(100, java.util.concurrent.TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException(e);
      }
    }
    close();
    throw new IllegalStateException("not ready within " + timeout + ":\n" + Files.readString(log));
  }

  private static boolean answers(String url) {
    try {
      HttpURLConnection c = (HttpURLConnection) URI.create(url).toURL().openConnection();
      c.setConnectTimeout(500);
      c.setReadTimeout(1000);
      return c.getResponseCode() == 200;
    } catch (IOException e) {
      return false;
    }
  }

  /** Kills the process at once, like {@code kill -9}. */
  void kill() {
    close();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /** @return what the process printed so far */
  String output() throws IOException {
    return Files.readString(log);
  }

  @Override
  public void close() {
    process.destroyForcibly();
    try {
      process.waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
