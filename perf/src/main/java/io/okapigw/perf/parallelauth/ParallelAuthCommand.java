package io.okapigw.perf.parallelauth;

import io.okapigw.core.config.Settings;
import io.okapigw.perf.fullfake.Launcher;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code parallel-auth}: runs the {@link ParallelAuthBench} with every part in a JVM of its own
 * (or in this one with {@code --in-process true}) and prints the table and the target.
 */
public final class ParallelAuthCommand {

  private static final Logger log = LoggerFactory.getLogger(ParallelAuthCommand.class);
  private static final Logger out = LoggerFactory.getLogger("io.okapigw.cli");

  private ParallelAuthCommand() {
  }

  /**
   * Runs and exits: 0 when it ran (target missed included), 1 if it could not run.
   *
   * @throws IllegalArgumentException naming a bad flag, before anything starts
   */
  public static void run(List<String> args) {
    ParallelAuthOptions options = ParallelAuthOptions.from(Settings.fromArgs(args));
    Path workDir = workDir();
    log.info("logs and stores of the started processes in {}", workDir);
    Vertx vertx = Vertx.vertx();
    Launcher launcher = options.inProcess() ? Launcher.inProcess(vertx, workDir)
        : Launcher.processes(vertx, options.jars(), workDir, options.gatewayHeap());
    int status = ParallelAuthBench.run(vertx, launcher, options)
        .map(report -> {
          out.info("\n{}\n{}", report.table(), report.targets());
          return 0;
        })
        .otherwise(e -> {
          log.error("parallel-auth failed: {}", e.getMessage());
          return 1;
        })
        .compose(code -> launcher.close().eventually(vertx::close).map(code))
        .toCompletionStage().toCompletableFuture().join();
    System.exit(status);
  }

  private static Path workDir() {
    try {
      return Files.createTempDirectory("okapigw-parallel-auth-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
