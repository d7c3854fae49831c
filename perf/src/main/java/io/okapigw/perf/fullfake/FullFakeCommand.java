package io.okapigw.perf.fullfake;

import io.okapigw.core.config.Settings;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code fullfake}: runs the {@link FullFakeBench} matrix with every part in a JVM of its own (or
 * in this one with {@code --in-process true}) and prints the table and the targets.
 */
public final class FullFakeCommand {

  private static final Logger log = LoggerFactory.getLogger(FullFakeCommand.class);
  private static final Logger out = LoggerFactory.getLogger("io.okapigw.cli");

  private FullFakeCommand() {
  }

  /**
   * Runs the matrix and exits: 0 when it ran (targets missed included), 1 if it could not run.
   *
   * @throws IllegalArgumentException naming a bad flag, before anything starts
   */
  public static void run(List<String> args) {
    FullFakeOptions options = FullFakeOptions.from(Settings.fromArgs(args));
    Path workDir = workDir("okapigw-fullfake-");
    log.info("logs and stores of the started processes in {}", workDir);
    Vertx vertx = Vertx.vertx();
    Launcher launcher = options.inProcess() ? Launcher.inProcess(vertx, workDir)
        : Launcher.processes(vertx, options.jars(), workDir, options.gatewayHeap());
    int status = FullFakeBench.run(vertx, launcher, options)
        .map(report -> {
          out.info("\n{}\n{}", report.table(), report.targets());
          return 0;
        })
        .otherwise(e -> {
          log.error("fullfake failed: {}", e.getMessage());
          return 1;
        })
        .compose(code -> launcher.close().eventually(vertx::close).map(code))
        .toCompletionStage().toCompletableFuture().join();
    System.exit(status);
  }

  /** @return a new temporary directory for logs and stores */
  static Path workDir(String prefix) {
    try {
      return Files.createTempDirectory(prefix);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
