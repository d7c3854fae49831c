package io.okapigw.core.deployment;

import io.okapigw.core.http.HttpError;
import io.okapigw.core.http.LogText;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A module run as a process, as Okapi runs one: {@code exec} (the command line split at spaces) or
 * {@code cmdlineStart} (run by {@code sh -c}), {@code %p} replaced by its port, its environment the
 * module's variables and no more of the gateway's than {@link LaunchEnvironment#KEPT}. Its output
 * is logged line by line, each line prefixed with the module id, its control characters escaped
 * ({@link OutputLines}). It runs in a process group of its own, so what it starts stops with it: on
 * undeploy its {@code cmdlineStop} runs (if it has one), then the group is sent SIGTERM and, if
 * anything of it is left after {@link ProcessGroup#GRACE}, SIGKILL. It ends with the gateway too,
 * even one killed with kill -9 ({@link GatewayWatch}), and its processes are recorded ({@link
 * ProcessLedger}) for the gateway's next start to end what escaped ({@link Leftovers}).
 */
final class ModuleProcess implements ModuleHandle {

  private static final Logger log = LoggerFactory.getLogger(ModuleProcess.class);

  private final Vertx vertx;
  private final Readiness readiness;
  private final ProcessLedger ledger;
  private final String id;
  private final String instId;
  private final LaunchDescriptor descriptor;
  private final int port;
  private final Map<String, String> env;
  private final int iterations;
  private volatile Process process;
  private volatile boolean stopped;
  private final Promise<Void> ended = Promise.promise();

  /**
   * @param ledger where its processes are recorded while they run
   * @param id the module id: its log lines' prefix
   * @param instId its instance, as recorded
   * @param env the module's variables (its descriptor's {@code env}, {@code /_/env} over it)
   * @param iterations how many times it is tried before its start fails
   */
  ModuleProcess(
      Vertx vertx,
      Readiness readiness,
      ProcessLedger ledger,
      String id,
      String instId,
      LaunchDescriptor descriptor,
      int port,
      Map<String, String> env,
      int iterations) {
    this.vertx = vertx;
    this.readiness = readiness;
    this.ledger = ledger;
    this.id = id;
    this.instId = instId;
    this.descriptor = descriptor;
    this.port = port;
    this.env = LaunchEnvironment.of(System.getenv(), env);
    this.iterations = iterations;
  }

  @Override
  public Future<Void> start() {
    List<String> command;
    try {
      command = command();
    } catch (HttpError e) {
      return Future.failedFuture(e);
    }
    boolean foreground = descriptor.exec() != null;
    return launch(command)
        .compose(
            started -> {
              process = started;
              if (foreground) {
                started.onExit().thenRun(() -> vertx.runOnContext(v -> ended.tryComplete()));
              }
              return readiness
                  .await(id, "localhost", port, iterations, () -> mayAnswer(started, foreground))
                  .recover(e -> exitedOrFailed(started, e))
                  .compose(v -> collected(started));
            })
        .recover(e -> stop().transform(v -> Future.failedFuture(e)));
  }

  /**
   * Whether waiting for the module still makes sense: an {@code exec} process that ended will not
   * answer; a {@code cmdlineStart} shell may end (with 0) once it started the module in the
   * background.
   */
  private static boolean mayAnswer(Process started, boolean foreground) {
    return started.isAlive() || !foreground && started.exitValue() == 0;
  }

  /**
   * Collects what the module's process started by the time it answers: a process that left its
   * group is found by its parent, often the shell of a {@code cmdlineStart}, which may end soon.
   */
  private Future<Void> collected(Process started) {
    return vertx.executeBlocking(
        () -> {
          ProcessGroup.collect(started);
          ledger.update(started);
          return null;
        },
        false);
  }

  /** Okapi's message for a process that ended before it answered. */
  private Future<Void> exitedOrFailed(Process started, Throwable e) {
    if (!started.isAlive() && started.exitValue() != 0) {
      return Future.failedFuture(
          HttpError.badRequest(
              "Service " + id + " returned with exit code " + started.exitValue()));
    }
    return Future.failedFuture(e);
  }

  /**
   * @return the command as Okapi builds it
   * @throws HttpError 400 Okapi's message for a descriptor without a command or without {@code %p}
   */
  private List<String> command() {
    String exec = descriptor.exec();
    String start = descriptor.cmdlineStart();
    if (exec != null) {
      if (!exec.contains("%p")) {
        throw HttpError.badRequest("Can not deploy: No %p in the exec line");
      }
      return Arrays.asList(withPort(exec).split(" "));
    }
    if (start != null) {
      if (!start.contains("%p")) {
        throw HttpError.badRequest("Can not deploy: No %p in the cmdlineStart");
      }
      return List.of("sh", "-c", withPort(start));
    }
    throw HttpError.badRequest("Can not deploy: No exec, no CmdlineStart in LaunchDescriptor");
  }

  private String withPort(String line) {
    return line.replace("%p", Integer.toString(port));
  }

  /** Starts the command in a process group of its own, its output logged. */
  private Future<Process> launch(List<String> command) {
    return vertx.executeBlocking(
        () -> {
          List<String> line = new ArrayList<>(ProcessGroup.leader());
          line.addAll(GatewayWatch.watched(command, descriptor.exec() != null, env));
          ProcessBuilder builder =
              LaunchEnvironment.apply(new ProcessBuilder(line).redirectErrorStream(true), env);
          Process started;
          try {
            if (!ProcessGroup.executable(command.get(0), builder.environment().get("PATH"))) {
              throw new IOException("no such program");
            }
            started = builder.start();
          } catch (IOException e) {
            throw HttpError.badRequest(
                "Execution for service "
                    + id
                    + " failed while executing "
                    + String.join(" ", command));
          }
          ProcessGroup.started(started, ledger::changed);
          ledger.add(started, id, instId, port);
          log.info("{}: started process {}: {}", id, started.pid(), String.join(" ", command));
          logOutput(started);
          return started;
        },
        false);
  }

  private void logOutput(Process started) {
    Thread reader =
        new Thread(
            () -> {
              try (Reader output =
                  new InputStreamReader(started.getInputStream(), StandardCharsets.UTF_8)) {
                OutputLines.read(output, line -> log.info("{} {}", id, line));
              } catch (IOException e) {
                log.debug("{}: output closed: {}", id, e.getMessage());
              }
            },
            "module-output-" + id);
    reader.setDaemon(true);
    reader.start();
  }

  @Override
  public Future<Void> ended() {
    return ended.future();
  }

  @Override
  public Future<Void> stop() {
    Process started = process;
    if (started == null || stopped) {
      return Future.succeededFuture();
    }
    stopped = true;
    String stop = descriptor.cmdlineStop();
    Future<Void> stopCommand = stop == null ? Future.succeededFuture() : runStop(stop);
    return stopCommand
        .recover(
            e -> {
              log.warn("{}: cmdlineStop failed: {}", id, LogText.message(e));
              return Future.succeededFuture();
            })
        .compose(v -> ProcessGroup.terminate(vertx, started))
        .andThen(v -> ledger.remove(started))
        .compose(v -> ProcessGroup.portClosed(vertx, port))
        .onSuccess(v -> log.info("{}: process {} stopped", id, started.pid()));
  }

  /** Okapi's {@code cmdlineStop}, run by {@code sh -c} with the module's environment. */
  private Future<Void> runStop(String stop) {
    Promise<Void> done = Promise.promise();
    vertx
        .executeBlocking(
            () -> {
              ProcessBuilder builder =
                  LaunchEnvironment.apply(
                      new ProcessBuilder("sh", "-c", withPort(stop)).redirectErrorStream(true),
                      env);
              Process p = builder.start();
              logOutput(p);
              return p;
            },
            false)
        .compose(p -> Future.fromCompletionStage(p.onExit(), vertx.getOrCreateContext()))
        .onComplete(
            exited -> {
              if (exited.succeeded() && exited.result().exitValue() != 0) {
                done.fail("exit code " + exited.result().exitValue());
              } else if (exited.failed()) {
                done.fail(exited.cause());
              } else {
                done.complete();
              }
            });
    return done.future();
  }
}
