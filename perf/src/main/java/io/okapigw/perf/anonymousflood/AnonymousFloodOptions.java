package io.okapigw.perf.anonymousflood;

import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import io.okapigw.perf.kit.launch.LaunchSettings;
import java.time.Duration;

/**
 * Settings of the {@code anonymous-flood} command: the values of the settings declared here ({@link
 * #SPEC}, with their defaults); {@link #from(Settings)} names a bad one.
 *
 * @param clients the signed-in users' concurrent clients
 * @param floodClients the tokenless flood's concurrent clients
 * @param requests the users' requests in each phase, over all rounds
 * @param rounds the requests of each phase in this many rounds, the phases alternating
 * @param maxInFlight the tenant's {@code bulkhead.max-in-flight} on the gateway
 * @param negativeTtl the gateway's {@code auth.cache.negative-ttl}: how long it answers a refusal
 *     from its cache
 * @param handlerDelay the handler's artificial delay
 * @param warmup the users' requests before measuring
 * @param runTimeLimit hard limit per run
 * @param launch how its parts are started
 */
public record AnonymousFloodOptions(
    int clients,
    int floodClients,
    int requests,
    int rounds,
    int maxInFlight,
    Duration negativeTtl,
    Duration handlerDelay,
    int warmup,
    Duration runTimeLimit,
    LaunchSettings.Launch launch) {

  public static final Setting<Integer> CLIENTS =
      Setting.integer("clients", 4, 1, 256).about("the signed-in users' concurrent clients");

  public static final Setting<Integer> FLOOD_CLIENTS =
      Setting.integer("flood-clients", 32, 1, 1024)
          .about("the concurrent clients of the tokenless flood, every request refused 401");

  public static final Setting<Integer> REQUESTS =
      Setting.integer("requests", 2000, 1, 1_000_000)
          .about("the users' requests in each phase (alone, during the flood)");

  public static final Setting<Integer> ROUNDS =
      Setting.integer("rounds", 5, 1, 100)
          .about(
              "the requests of each phase in this many rounds, the phases alternating, so that a"
                  + " change in the machine's load hits both alike");

  public static final Setting<Integer> MAX_IN_FLIGHT =
      Setting.integer("max-in-flight", 16, 1, 10_000)
          .about(
              "the tenant's bulkhead.max-in-flight on the gateway: above the users' clients,"
                  + " below the flood's");

  public static final Setting<Duration> NEGATIVE_TTL =
      Setting.duration("negative-ttl", Duration.ZERO, Duration.ZERO, Duration.ofHours(1))
          .about(
              "the gateway's auth.cache.negative-ttl: 0 (its default) calls the auth module for"
                  + " every flood request; more answers the refusal from the cache");

  public static final Setting<Duration> HANDLER_DELAY =
      Setting.duration("handler-delay", Duration.ofMillis(2), Duration.ZERO, Duration.ofSeconds(10))
          .about("the handler's artificial delay");

  public static final Setting<Integer> WARMUP =
      Setting.integer("warmup", 300, 0, 1_000_000).about("the users' requests before measuring");

  public static final Setting<Duration> RUN_TIME_LIMIT =
      Setting.duration(
              "run-time-limit", Duration.ofSeconds(60), Duration.ofSeconds(1), Duration.ofDays(1))
          .about("hard limit per run");

  /** The settings of {@code anonymous-flood}, in documentation order. */
  public static final SettingsSpec SPEC =
      SettingsSpec.of(
              CLIENTS,
              FLOOD_CLIENTS,
              REQUESTS,
              ROUNDS,
              MAX_IN_FLIGHT,
              NEGATIVE_TTL,
              HANDLER_DELAY,
              WARMUP,
              RUN_TIME_LIMIT)
          .and(LaunchSettings.SPEC);

  /**
   * @param settings read by {@link #SPEC}
   * @throws IllegalArgumentException naming the first bad setting
   */
  public static AnonymousFloodOptions from(Settings settings) {
    AnonymousFloodOptions options =
        new AnonymousFloodOptions(
            settings.get(CLIENTS),
            settings.get(FLOOD_CLIENTS),
            settings.get(REQUESTS),
            settings.get(ROUNDS),
            settings.get(MAX_IN_FLIGHT),
            settings.get(NEGATIVE_TTL),
            settings.get(HANDLER_DELAY),
            settings.get(WARMUP),
            settings.get(RUN_TIME_LIMIT),
            LaunchSettings.from(settings));
    if (options.rounds() > options.requests()) {
      throw new IllegalArgumentException(
          "rounds must be at most requests (" + options.requests() + "), was " + options.rounds());
    }
    if (options.clients() > options.maxInFlight()) {
      throw new IllegalArgumentException(
          "max-in-flight ("
              + options.maxInFlight()
              + ") must be at least clients ("
              + options.clients()
              + "): the users alone must fit the tenant's limit");
    }
    return options;
  }

  /**
   * @return the users' requests of round {@code round} (0-based) of each phase
   */
  public int requestsInRound(int round) {
    return requests / rounds + (round < requests % rounds ? 1 : 0);
  }
}
