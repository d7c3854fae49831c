package io.okapigw.perf.fullfake;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A JVM started by a {@link ProcessLauncher}: its output goes to a log file. */
final class ChildProcess {

  private static final long POLL_MILLIS = 100;
  private static final int LOG_TAIL = 4000;

  private final String name;
  private final Process process;
  private final Path log;

  private ChildProcess(String name, Process process, Path log) {
    this.name = name;
    this.process = process;
    this.log = log;
  }

  /** Starts {@code command} off the event loop; output (both streams) to {@code log}. */
  static Future<ChildProcess> start(Vertx vertx, String name, List<String> command, Path log) {
    return vertx.executeBlocking(
        () ->
            new ChildProcess(
                name,
                new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start(),
                log));
  }

  /**
   * @param url answered (any status) once the process is up
   * @return done once it answers; failed with the log's tail if the process exits or the timeout
   *     passes
   */
  Future<Void> awaitReady(Vertx vertx, String url, Duration timeout) {
    HttpClientAgent client = vertx.createHttpClient();
    Promise<Void> ready = Promise.promise();
    long deadline = System.nanoTime() + timeout.toNanos();
    long timer =
        vertx.setPeriodic(
            POLL_MILLIS,
            id -> {
              if (!process.isAlive()) {
                ready.tryFail(name + " exited with " + process.exitValue() + ":\n" + logTail());
              } else if (System.nanoTime() > deadline) {
                ready.tryFail(
                    name + " did not answer " + url + " within " + timeout + ":\n" + logTail());
              } else {
                client
                    .request(new RequestOptions().setMethod(HttpMethod.GET).setAbsoluteURI(url))
                    .compose(HttpClientRequest::send)
                    .compose(response -> response.body())
                    .onSuccess(body -> ready.tryComplete());
              }
            });
    return ready
        .future()
        .eventually(
            () -> {
              vertx.cancelTimer(timer);
              return client.close();
            });
  }

  /** Stops the process (SIGTERM, then SIGKILL after 10 s), off the event loop. */
  Future<Void> stop(Vertx vertx) {
    return vertx.executeBlocking(
        () -> {
          process.destroy();
          if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
          }
          return null;
        });
  }

  /** Kills the process at once (shutdown hook). */
  void kill() {
    process.destroyForcibly();
  }

  private String logTail() {
    try {
      String text = Files.readString(log);
      return text.length() <= LOG_TAIL ? text : text.substring(text.length() - LOG_TAIL);
    } catch (IOException e) {
      return "(log " + log + " unreadable: " + e.getMessage() + ")";
    }
  }
}
