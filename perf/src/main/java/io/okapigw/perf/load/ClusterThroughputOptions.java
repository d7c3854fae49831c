package io.okapigw.perf.load;

import io.okapigw.config.Settings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * Settings of {@code cluster-throughput}, from {@code --key value} flags.
 *
 * @param nodes {@code --nodes}, cluster size, default 3 (2..5)
 * @param users {@code --users}, default 8; a list ({@code 8,32}) runs each count in turn
 * @param duration {@code --duration}, measured time per mode, default 60s
 * @param warmup {@code --warmup}, load on each mode before measuring, default 10s
 * @param slices {@code --slices}, the measured time of each mode in this many interleaved slices,
 *     default 6 (each at least 1 s)
 * @param items {@code --items}, items of the generated library, default 1000
 * @param patrons {@code --patrons}, its patrons, default 1000
 * @param instances {@code --instances}, HTTP verticles of every gateway JVM, default 2
 * @param gatewayJar {@code --gateway-jar}, default {@code okapi-core/target/okapi-core-fat.jar}
 * @param maxOperations {@code --max-operations}, hard cap per mode, default 1,000,000
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

  static final Set<String> KEYS =
      Set.of(
          "nodes",
          "users",
          "duration",
          "warmup",
          "slices",
          "items",
          "patrons",
          "instances",
          "gateway-jar",
          "max-operations");

  /**
   * @throws IllegalArgumentException naming the bad flag
   */
  static ClusterThroughputOptions from(Settings s) {
    s.checkKnown(KEYS);
    Duration duration =
        LoadOptions.duration(
            s, "duration", Duration.ofSeconds(60), Duration.ofSeconds(1), Duration.ofHours(24));
    return new ClusterThroughputOptions(
        s.integer("nodes", 3, 2, 5),
        LoadOptions.users(s),
        duration,
        LoadOptions.duration(
            s, "warmup", Duration.ofSeconds(10), Duration.ZERO, Duration.ofHours(1)),
        LoadOptions.slices(s, duration, true),
        s.integer("items", 1000, 1, 1_000_000),
        s.integer("patrons", 1000, 1, 1_000_000),
        s.integer("instances", 2, 1, 64),
        Path.of(s.string("gateway-jar", "okapi-core/target/okapi-core-fat.jar")),
        s.integer("max-operations", 1_000_000, 2, 100_000_000));
  }
}
