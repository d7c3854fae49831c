package io.okapigw.perf.fullfake;

import io.okapigw.config.Settings;
import java.util.List;

/**
 * {@code fullfake}: runs the {@link FullFakeBench} matrix with every part in a JVM of its own (or
 * in this one with {@code --in-process true}) and prints the table and the targets.
 */
public final class FullFakeCommand {

  private FullFakeCommand() {}

  /**
   * Runs the matrix and exits: 0 when it ran (targets missed included), 1 if it could not run.
   *
   * @throws IllegalArgumentException naming a bad flag, before anything starts
   */
  public static void run(List<String> args) {
    FullFakeOptions options = FullFakeOptions.from(Settings.fromArgs(args));
    LaunchedBench.runAndExit(
        "fullfake",
        options.inProcess(),
        options.jars(),
        options.gatewayHeap(),
        (vertx, launcher) ->
            FullFakeBench.run(vertx, launcher, options)
                .map(report -> report.table() + "\n" + report.targets()));
  }
}
