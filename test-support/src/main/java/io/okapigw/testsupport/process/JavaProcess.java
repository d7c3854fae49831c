package io.okapigw.testsupport.process;

import java.io.IOException;
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

/**
 * A program of this project running in a JVM of its own, its output (both streams) going to a log
 * file. {@link #close()} kills it (like kill -9), {@link #stop()} asks it to stop first.
 */
public final class JavaProcess implements AutoCloseable {

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();
  private static final int LOG_TAIL = 4000;

  /**
   * How long a program may take to start or to stop by itself: a hang guard, far from how long it
   * takes on a busy machine (a node of a 3-node cluster took over 2 minutes to answer with two
   * CPU-bound processes beside the build).
   */
  public static final Duration PATIENCE = Duration.ofMinutes(5);

  private final String name;
  private final Process process;
  private final Path log;
  private final boolean temporaryLog;

  private JavaProcess(String name, Process process, Path log, boolean temporaryLog) {
    this.name = name;
    this.process = process;
    this.log = log;
    this.temporaryLog = temporaryLog;
  }

  /**
   * Starts {@code java <jvmArgs> -jar <jar> <args>} without waiting for it; its output goes to a
   * temporary file, deleted by {@link #close()}.
   *
   * @throws IllegalStateException if the jar is missing
   */
  public static JavaProcess launch(Path jar, List<String> jvmArgs, List<String> args)
      throws IOException {
    return launch(thisJava(), jar, jvmArgs, args);
  }

  /**
   * Like {@link #launch(Path, List, List)}, on another JDK.
   *
   * @param java the {@code java} program to run it with (a program built for a newer Java)
   */
  public static JavaProcess launch(Path java, Path jar, List<String> jvmArgs, List<String> args)
      throws IOException {
    if (!Files.exists(jar)) {
      throw new IllegalStateException(jar + " is missing: build it with mvn -DskipTests package");
    }
    List<String> javaArgs = new ArrayList<>(jvmArgs);
    javaArgs.add("-jar");
    javaArgs.add(jar.toString());
    javaArgs.addAll(args);
    Path log = Files.createTempFile("okapigw-process-", ".log");
    return start(java, jar.getFileName().toString(), javaArgs, log, true);
  }

  /**
   * Starts {@code java <javaArgs>} (e.g. {@code -Xmx256m -jar app.jar --port 8081}, or {@code -cp
   * PATH MainClass ...}) without waiting for it; its output goes to {@code log}, which is kept.
   *
   * @param name what the process is, for messages
   */
  public static JavaProcess start(String name, List<String> javaArgs, Path log) throws IOException {
    return start(thisJava(), name, javaArgs, log, false);
  }

  /**
   * Starts {@code main} of this test's class path in a JVM of its own, as {@link #start(String,
   * List, Path)} does.
   *
   * @param heap the JVM's {@code -Xmx} value (e.g. {@code 128m})
   * @param args the program's arguments
   */
  public static JavaProcess startMain(
      String name, String heap, Class<?> main, List<String> args, Path log) throws IOException {
    List<String> javaArgs = new ArrayList<>();
    javaArgs.add("-Xmx" + heap);
    javaArgs.add("-cp");
    javaArgs.add(
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")));
    javaArgs.add(main.getName());
    javaArgs.addAll(args);
    return start(name, javaArgs, log);
  }

  private static Path thisJava() {
    return Path.of(System.getProperty("java.home"), "bin", "java");
  }

  /**
   * As {@link #start(String, List, Path)}, with another Java than the one running this (a program
   * that needs a newer JDK: Okapi 7 needs Java 21).
   *
   * @param java the {@code java} executable
   */
  public static JavaProcess start(String name, Path java, List<String> javaArgs, Path log)
      throws IOException {
    return start(java, name, javaArgs, log, false);
  }

  private static JavaProcess start(
      Path java, String name, List<String> javaArgs, Path log, boolean temporaryLog)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(java.toString());
    command.addAll(javaArgs);
    Process process =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    return new JavaProcess(name, process, log, temporaryLog);
  }

  /**
   * Waits until {@code url} answers 200; kills the process and fails, quoting the end of its
   * output, if it exits or doesn't answer within {@code timeout}.
   */
  public void awaitReady(String url, Duration timeout) throws IOException {
    Instant deadline = Instant.now().plus(timeout);
    while (Instant.now().isBefore(deadline)) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            name + " exited with " + process.exitValue() + ":\n" + outputTail());
      }
      if (answers(url)) {
        return;
      }
      pause(100);
    }
    String output = outputTail();
    close();
    throw new IllegalStateException(
        name + " did not answer " + url + " within " + timeout + ":\n" + output);
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

  public static void pause(long millis) {
    try {
      TimeUnit.MILLISECONDS.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Waits for the process to end by itself.
   *
   * @return its exit code
   * @throws IllegalStateException if it still runs after {@code timeout}
   */
  public int awaitExit(Duration timeout) {
    try {
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new IllegalStateException(name + " still runs after " + timeout);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    return process.exitValue();
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

  /**
   * @return the last few thousand characters the process printed, for a failure message
   */
  public String outputTail() {
    try {
      String text = output();
      return text.length() <= LOG_TAIL ? text : text.substring(text.length() - LOG_TAIL);
    } catch (IOException e) {
      return "(log " + log + " unreadable: " + e.getMessage() + ")";
    }
  }

  /** Stops the process: SIGTERM, then SIGKILL if it still runs 10 s later. */
  public void stop() {
    stop(Duration.ofSeconds(10));
  }

  /**
   * Stops the process: SIGTERM (as {@code kill} or {@code docker stop} do), then SIGKILL if it
   * still runs after {@code grace}.
   *
   * @return whether it ended by itself within {@code grace}
   */
  public boolean stop(Duration grace) {
    process.destroy();
    try {
      if (process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
        return true;
      }
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return false;
  }

  /**
   * Sends the process SIGTERM (as {@code docker stop} does) and returns at once; {@link #awaitExit}
   * waits for its end.
   */
  public void terminate() {
    process.destroy();
  }

  /** Kills the process at once, like {@code kill -9}, and waits for its end. */
  public void kill() {
    close();
  }

  /**
   * Freezes the process (SIGSTOP): it keeps its sockets, the kernel still accepts connections on
   * its listeners, but it answers nothing until {@link #resume()}: a hung program.
   */
  public void pause() {
    signal("STOP");
  }

  /** Lets a process frozen by {@link #pause()} go on (SIGCONT). */
  public void resume() {
    signal("CONT");
  }

  /**
   * @return the process id
   */
  public long pid() {
    return process.pid();
  }

  private void signal(String signal) {
    try {
      Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start();
      if (!kill.waitFor(30, TimeUnit.SECONDS) || kill.exitValue() != 0) {
        throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed");
      }
    } catch (IOException e) {
      throw new IllegalStateException("kill -" + signal + " " + process.pid() + ": " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted sending SIG" + signal, e);
    }
  }

  /**
   * Kills the process and waits for its end; deletes a temporary output file (failures quote the
   * output before this).
   */
  @Override
  public void close() {
    process.destroyForcibly();
    try {
      process.waitFor(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (temporaryLog) {
      try {
        Files.deleteIfExists(log);
      } catch (IOException e) {
        // a temporary file left behind is harmless
      }
    }
  }
}
