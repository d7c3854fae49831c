package io.okapigw.perf.load;

import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import io.okapigw.perf.kit.launch.LaunchSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Settings of {@code cluster-throughput}: the values of the settings declared here ({@link #SPEC},
 * with their defaults; those it shares with {@code checkout-checkin} declared in {@link
 * LoadOptions}).
 *
 * @param nodes cluster size
 * @param users the user counts, run in turn
 * @param duration measured time per mode
 * @param warmup load on each mode before measuring
 * @param slices the measured time of each mode in this many interleaved slices
 * @param items items of the generated library
 * @param patrons its patrons
 * @param instances HTTP verticles of every gateway JVM
 * @param gatewayJar the gateway's fat jar
 * @param maxOperations hard cap per mode
 */
record ClusterThroughputOptions(
    int nodes,
    List<Integer> users,
    Duration duration,
    Duration warmup,
    int slices,
    int items,
    int patrons,
    int instances,
    Path gatewayJar,
    long maxOperations) {

  static final Setting<Integer> NODES =
      Setting.integer("nodes", 3, 2, 5).about("cluster size; each node a JVM of its own");

  static final Setting<Duration> WARMUP =
      Setting.duration("warmup", Duration.ofSeconds(10), Duration.ZERO, Duration.ofHours(1))
          .about("load on each mode before measuring");

  static final Setting<Integer> INSTANCES =
      Setting.integer("instances", 2, 1, 64).about("HTTP verticles of every gateway JVM");

  /** The settings of {@code cluster-throughput}, in documentation order. */
  static final SettingsSpec SPEC =
      SettingsSpec.of(
          NODES,
          LoadOptions.USERS,
          LoadOptions.DURATION.about("measured time per mode"),
          WARMUP,
          LoadOptions.SLICES.about(
              "each mode's measured time in this many slices, interleaved across the modes; each"
                  + " at least 1s"),
          LoadOptions.ITEMS.about("items of the generated library"),
          LoadOptions.PATRONS,
          INSTANCES,
          LaunchSettings.GATEWAY_JAR,
          LoadOptions.MAX_OPERATIONS.about("hard cap per mode"));

  /**
   * @param s read by {@link #SPEC}
   * @throws IllegalArgumentException naming the bad setting
   */
  static ClusterThroughputOptions from(Settings s) {
    Duration duration = s.get(LoadOptions.DURATION);
    return new ClusterThroughputOptions(
        s.get(NODES),
        s.get(LoadOptions.USERS),
        duration,
        s.get(WARMUP),
        LoadOptions.slices(s, duration, true),
        s.get(LoadOptions.ITEMS),
        s.get(LoadOptions.PATRONS),
        s.get(INSTANCES),
        Path.of(s.get(LaunchSettings.GATEWAY_JAR)),
        s.get(LoadOptions.MAX_OPERATIONS));
  }
}
