package io.okapigw.perf.kit.process;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The processes a benchmark starts (any program, not only Java), each logging to a file of its own,
 * all ended when this closes or the JVM exits (Ctrl-C, a failure): first asked to stop (nginx's
 * master then stops its worker), after a moment killed, with every descendant.
 */
public final class Children implements AutoCloseable {

  private static final HttpClient HTTP =
      HttpClient.newBuilder()
          // no h2c upgrade attempt: a relay would pass the Upgrade on to the module
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(1))
          .build();
  private static final int LOG_TAIL = 3000;

  private final Path logDir;
  private final List<Process> started = new CopyOnWriteArrayList<>();
  private final Thread hook = new Thread(this::stopAll, "hop-compare-children");

  /**
   * @param logDir where each process's log goes
   */
  public Children(Path logDir) {
    this.logDir = logDir;
    Runtime.getRuntime().addShutdownHook(hook);
  }

  /**
   * Starts {@code command}; its output goes to {@code NAME.log} in the log directory.
   *
   * @return the process
   */
  public Process start(String name, List<String> command) throws IOException {
    Process process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(logDir.resolve(name + ".log").toFile())
            .start();
    started.add(process);
    return process;
  }

  /**
   * Waits until {@code url} answers 200.
   *
   * @throws IllegalStateException with the end of the process's log if it exits first or does not
   *     answer within {@code timeout}
   */
  public void awaitReady(String name, Process process, String url, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            name + " exited with " + process.exitValue() + ":\n" + logTail(name));
      }
      if (answers(url)) {
        return;
      }
      TimeUnit.MILLISECONDS.sleep(100);
    }
    throw new IllegalStateException(
        name + " did not answer " + url + " within " + timeout + ":\n" + logTail(name));
  }

  private static boolean answers(String url) throws InterruptedException {
    try {
      HttpRequest request =
          HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(2)).build();
      return HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * @return the end of the log of process {@code name}, for a failure message
   */
  public String logTail(String name) {
    try {
      String log = Files.readString(logDir.resolve(name + ".log"));
      return log.length() > LOG_TAIL ? "..." + log.substring(log.length() - LOG_TAIL) : log;
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  @Override
  public void close() {
    stopAll();
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // the JVM is exiting: the hook runs, or ran, anyway
    }
  }

  private void stopAll() {
    List<ProcessHandle> all =
        started.stream()
            .flatMap(p -> Stream.concat(p.descendants(), Stream.of(p.toHandle())))
            .toList();
    started.forEach(Process::destroy);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
    for (ProcessHandle p : all) {
      try {
        p.onExit().get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (Exception notYet) {
        p.destroyForcibly();
      }
    }
    started.clear();
  }
}
