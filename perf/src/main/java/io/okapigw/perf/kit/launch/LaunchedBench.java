package io.okapigw.perf.kit.launch;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A benchmark whose parts a {@link Launcher} starts (each in a JVM of its own, or all in this one),
 * run from the command line: a temporary directory for the parts' logs and stores, the report
 * printed, everything stopped, the process exited.
 */
public final class LaunchedBench {

  private static final Logger log = LoggerFactory.getLogger(LaunchedBench.class);
  private static final Logger out = LoggerFactory.getLogger("io.okapigw.cli");

  private LaunchedBench() {}

  /**
   * Runs {@code bench} and exits: 0 when it ran (targets missed included), 1 if it could not.
   *
   * @param name the command, for the directory and messages
   * @param bench the benchmark; its result is printed as it is
   */
  public static void runAndExit(
      String name,
      LaunchSettings.Launch launch,
      BiFunction<Vertx, Launcher, Future<String>> bench) {
    Path workDir = workDir("okapigw-" + name + "-");
    log.info("logs and stores of the started processes in {}", workDir);
    Vertx vertx = Vertx.vertx();
    Launcher launcher =
        launch.inProcess()
            ? Launcher.inProcess(vertx, workDir)
            : Launcher.processes(vertx, launch.jars(), workDir, launch.gatewayHeap());
    int status =
        bench
            .apply(vertx, launcher)
            .map(
                report -> {
                  out.info("\n{}", report);
                  return 0;
                })
            .otherwise(
                e -> {
                  log.error("{} failed: {}", name, e.getMessage());
                  return 1;
                })
            .compose(code -> launcher.close().eventually(vertx::close).map(code))
            .toCompletionStage()
            .toCompletableFuture()
            .join();
    System.exit(status);
  }

  private static Path workDir(String prefix) {
    try {
      return Files.createTempDirectory(prefix);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
