package io.okapigw.perf.process;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/** A fat jar of this project running in its own JVM, killed (like kill -9) when closed. */
public final class JavaProcess implements AutoCloseable {

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();

  static final int FIRST_PORT = 20_000;
  static final int LAST_PORT = 32_767;
  private static final int PORT_TRIES = 200;
  private static final Random RANDOM = new Random();

  private final Process process;
  private final Path log;

  private JavaProcess(Process process, Path log) {
    this.process = process;
    this.log = log;
  }

  /**
   * Starts {@code java <jvmArgs> -jar <jar> <args>} without waiting for it.
   *
   * @throws IllegalStateException if the jar is missing
   */
  public static JavaProcess launch(Path jar, List<String> jvmArgs, List<String> args)
      throws IOException {
    if (!Files.exists(jar)) {
      throw new IllegalStateException(jar + " is missing: build it with mvn -DskipTests package");
    }
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmArgs);
    command.add("-jar");
    command.add(jar.toString());
    command.addAll(args);
    Path log = Files.createTempFile("okapigw-process-", ".log");
    Process process =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    return new JavaProcess(process, log);
  }

  /**
   * A port for a process still to be started: free at the time of asking, and below Linux's
   * ephemeral range (32768-60999). A port the kernel hands out ({@code new ServerSocket(0)}) comes
   * from that range, and in the seconds a JVM takes to start, an outgoing connection of any process
   * may be given the same port, so the process then fails to bind it.
   *
   * @return a port in {@value #FIRST_PORT} to {@value #LAST_PORT}
   * @throws IOException if none of {@value #PORT_TRIES} random ports there was free
   */
  public static int freePort() throws IOException {
    for (int i = 0; i < PORT_TRIES; i++) {
      int port = FIRST_PORT + RANDOM.nextInt(LAST_PORT - FIRST_PORT + 1);
      try (ServerSocket socket = new ServerSocket(port)) {
        return socket.getLocalPort();
      } catch (IOException taken) {
        // try another
      }
    }
    throw new IOException(
        "no free port among " + PORT_TRIES + " tries in " + FIRST_PORT + "-" + LAST_PORT);
  }

  /**
   * Waits until {@code url} answers 200; kills the process and fails if it exits or doesn't answer
   * within {@code timeout}.
   */
  public void awaitReady(String url, Duration timeout) throws IOException {
    Instant deadline = Instant.now().plus(timeout);
    while (Instant.now().isBefore(deadline)) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "process exited with " + process.exitValue() + ":\n" + output());
      }
      if (answers(url)) {
        return;
      }
      pause(100);
    }
    String output = output();
    close();
    throw new IllegalStateException("not ready within " + timeout + ":\n" + output);
  }

  /**
   * @return whether {@code url} answers 200 now
   */
  public static boolean answers(String url) {
    try {
      HttpRequest request =
          HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(2)).GET().build();
      return HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  static void pause(long millis) {
    try {
      TimeUnit.MILLISECONDS.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /**
   * @return what the process printed so far
   */
  public String output() throws IOException {
    return Files.readString(log);
  }

  /** Kills the process at once, like {@code kill -9}. */
  public void kill() {
    close();
  }

  /** Kills the process and deletes its output file (failures quote the output before this). */
  @Override
  public void close() {
    process.destroyForcibly();
    try {
      process.waitFor(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      Files.deleteIfExists(log);
    } catch (IOException e) {
      // a temporary file left behind is harmless
    }
  }
}
