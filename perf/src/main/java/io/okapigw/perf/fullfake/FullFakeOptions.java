package io.okapigw.perf.fullfake;

import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import io.okapigw.config.Sizes;
import io.okapigw.perf.kit.launch.LaunchSettings;
import io.okapigw.perf.kit.modules.FakeBodyModule;
import java.time.Duration;
import java.util.List;

/**
 * Settings of the {@code fullfake} command: the values of the settings declared here ({@link
 * #SPEC}, with their defaults); {@link #from(Settings)} names a bad one.
 *
 * @param clients the client counts of the matrix
 * @param sizes the body sizes of the matrix
 * @param requests requests per cell and route, fewer for big bodies
 * @param maxBytesPerCell bodies per cell and route are cut to move at most this
 * @param minRequests but never fewer than this
 * @param cellTimeLimit hard limit per cell and route
 * @param warmup requests per route before measuring
 * @param launch how its parts are started
 */
public record FullFakeOptions(
    List<Integer> clients,
    List<Long> sizes,
    int requests,
    long maxBytesPerCell,
    int minRequests,
    Duration cellTimeLimit,
    int warmup,
    LaunchSettings.Launch launch) {

  public static final Setting<List<Integer>> CLIENTS =
      Setting.integers("clients", List.of(1, 5, 10, 15, 20), 1, 256)
          .about("the client counts of the matrix");

  public static final Setting<List<Long>> SIZES =
      Setting.sizes(
              "sizes",
              List.of(
                  Sizes.KB, 16 * Sizes.KB, 256 * Sizes.KB, Sizes.MB, 16 * Sizes.MB, 256 * Sizes.MB),
              0,
              FakeBodyModule.MAX_SIZE)
          .about("the body sizes of the matrix");

  public static final Setting<Integer> REQUESTS =
      Setting.integer("requests", 2000, 1, 1_000_000)
          .about("requests per cell and route, fewer for big bodies (`max-bytes-per-cell`)");

  public static final Setting<Long> MAX_BYTES_PER_CELL =
      Setting.size("max-bytes-per-cell", Sizes.GB, 1, 1024 * Sizes.GB)
          .about("the requests of a cell and route move at most this many body bytes");

  public static final Setting<Integer> MIN_REQUESTS =
      Setting.integer("min-requests", 4, 1, 1_000_000).about("but never fewer requests than this");

  public static final Setting<Duration> CELL_TIME_LIMIT =
      Setting.duration(
              "cell-time-limit", Duration.ofSeconds(60), Duration.ofSeconds(1), Duration.ofDays(1))
          .about("hard limit per cell and route");

  public static final Setting<Integer> WARMUP =
      Setting.integer("warmup", 1000, 0, 1_000_000).about("requests per route before measuring");

  /** The settings of {@code fullfake}, in documentation order. */
  public static final SettingsSpec SPEC =
      SettingsSpec.of(
              CLIENTS, SIZES, REQUESTS, MAX_BYTES_PER_CELL, MIN_REQUESTS, CELL_TIME_LIMIT, WARMUP)
          .and(LaunchSettings.SPEC);

  /**
   * @param settings read by {@link #SPEC}
   * @throws IllegalArgumentException naming the first bad setting
   */
  public static FullFakeOptions from(Settings settings) {
    return new FullFakeOptions(
        settings.get(CLIENTS),
        settings.get(SIZES),
        settings.get(REQUESTS),
        settings.get(MAX_BYTES_PER_CELL),
        settings.get(MIN_REQUESTS),
        settings.get(CELL_TIME_LIMIT),
        settings.get(WARMUP),
        LaunchSettings.from(settings));
  }

  /**
   * @return requests per route for bodies of {@code size}: within the byte budget
   */
  public int requestsFor(long size) {
    long byBudget = maxBytesPerCell / Math.max(1, size);
    return (int) Math.min(requests, Math.max(minRequests, byBudget));
  }
}
