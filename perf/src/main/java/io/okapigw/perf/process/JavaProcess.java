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
import java.util.concurrent.TimeUnit;

/** A fat jar of this project running in its own JVM, killed (like kill -9) when closed. */
public final class JavaProcess implements AutoCloseable {

  private static final HttpClient HTTP = HttpClient.newBuilder()
      .connectTimeout(Duration.ofMillis(500)).build();

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
    Process process = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
    return new JavaProcess(process, log);
  }

  /** @return a port free at the time of asking */
  public static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  /**
   * Waits until {@code url} answers 200; kills the process and fails if it exits or doesn't
   * answer within {@code timeout}.
   */
  public void awaitReady(String url, Duration timeout) throws IOException {
    Instant deadline = Instant.now().plus(timeout);
    while (Instant.now().isBefore(deadline)) {
      if (!process.isAlive()) {
        throw new IllegalStateException("process exited with " + process.exitValue() + ":\n"
            + output());
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

  /** @return whether {@code url} answers 200 now */
  public static boolean answers(String url) {
    try {
      HttpRequest request = HttpRequest.newBuilder(URI.create(url))
          .timeout(Duration.ofSeconds(2)).GET().build();
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

  /** @return what the process printed so far */
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
