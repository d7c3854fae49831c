package io.okapigw.perf.anonymousflood;

import io.okapigw.config.Settings;
import io.okapigw.perf.kit.launch.LaunchedBench;

/**
 * {@code anonymous-flood}: runs the {@link AnonymousFloodBench} with every part in a JVM of its own
 * (or in this one with {@code --in-process true}) and prints the table and the p99 comparison.
 */
public final class AnonymousFloodCommand {

  private AnonymousFloodCommand() {}

  /**
   * Runs and exits: 0 when it ran, 1 if it could not run.
   *
   * @param settings read by {@link AnonymousFloodOptions#SPEC}
   * @throws IllegalArgumentException naming a bad setting, before anything starts
   */
  public static void run(Settings settings) {
    AnonymousFloodOptions options = AnonymousFloodOptions.from(settings);
    LaunchedBench.runAndExit(
        "anonymous-flood",
        options.launch(),
        (vertx, launcher) ->
            AnonymousFloodBench.run(vertx, launcher, options)
                .map(report -> report.table() + "\n" + report.summary()));
  }
}
