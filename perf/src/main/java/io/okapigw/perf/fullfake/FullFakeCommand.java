package io.okapigw.perf.fullfake;

import io.okapigw.config.Settings;
import io.okapigw.perf.kit.launch.LaunchedBench;

/**
 * {@code fullfake}: runs the {@link FullFakeBench} matrix with every part in a JVM of its own (or
 * in this one with {@code --in-process true}) and prints the table and the targets.
 */
public final class FullFakeCommand {

  private FullFakeCommand() {}

  /**
   * Runs the matrix and exits: 0 when it ran (targets missed included), 1 if it could not run.
   *
   * @param settings read by {@link FullFakeOptions#SPEC}
   * @throws IllegalArgumentException naming a bad setting, before anything starts
   */
  public static void run(Settings settings) {
    FullFakeOptions options = FullFakeOptions.from(settings);
    LaunchedBench.runAndExit(
        "fullfake",
        options.launch(),
        (vertx, launcher) ->
            FullFakeBench.run(vertx, launcher, options)
                .map(report -> report.table() + "\n" + report.targets()));
  }
}
