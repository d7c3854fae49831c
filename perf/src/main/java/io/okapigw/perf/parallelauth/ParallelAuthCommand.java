package io.okapigw.perf.parallelauth;

import io.okapigw.config.Settings;
import io.okapigw.perf.kit.launch.LaunchedBench;

/**
 * {@code parallel-auth}: runs the {@link ParallelAuthBench} with every part in a JVM of its own (or
 * in this one with {@code --in-process true}) and prints the table and the target.
 */
public final class ParallelAuthCommand {

  private ParallelAuthCommand() {}

  /**
   * Runs and exits: 0 when it ran (target missed included), 1 if it could not run.
   *
   * @param settings read by {@link ParallelAuthOptions#SPEC}
   * @throws IllegalArgumentException naming a bad setting, before anything starts
   */
  public static void run(Settings settings) {
    ParallelAuthOptions options = ParallelAuthOptions.from(settings);
    LaunchedBench.runAndExit(
        "parallel-auth",
        options.launch(),
        (vertx, launcher) ->
            ParallelAuthBench.run(vertx, launcher, options)
                .map(report -> report.table() + "\n" + report.targets()));
  }
}
