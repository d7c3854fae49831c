package io.okapigw.perf.parallelauth;

import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import io.okapigw.perf.kit.launch.LaunchSettings;
import java.time.Duration;
import java.util.List;

/**
 * Settings of the {@code parallel-auth} command: the values of the settings declared here ({@link
 * #SPEC}, with their defaults); {@link #from(Settings)} names a bad one.
 *
 * @param clients the client counts
 * @param requests requests per client count and route; each gateway route needs that many new
 *     tokens
 * @param rounds the requests of each client count are split into this many rounds, each running
 *     every route in turn, so that a change in the machine's load hits all alike
 * @param handlerDelay the handler's artificial delay
 * @param warmup requests per route before measuring
 * @param runTimeLimit hard limit per run
 * @param launch how its parts are started
 */
public record ParallelAuthOptions(
    List<Integer> clients,
    int requests,
    int rounds,
    Duration handlerDelay,
    int warmup,
    Duration runTimeLimit,
    LaunchSettings.Launch launch) {

  /** Most tokens a run may need: logins are cheap, but each is a session in the auth store. */
  public static final int MAX_TOKENS = 200_000;

  public static final Setting<List<Integer>> CLIENTS =
      Setting.integers("clients", List.of(1, 8, 32), 1, 256).about("the client counts");

  public static final Setting<Integer> REQUESTS =
      Setting.integer("requests", 1000, 1, MAX_TOKENS)
          .about("requests per client count and route; each needs a new token");

  public static final Setting<Integer> ROUNDS =
      Setting.integer("rounds", 5, 1, 100)
          .about(
              "the requests of each client count in this many rounds, each running every route in"
                  + " turn, so that a change in the machine's load hits all alike");

  public static final Setting<Duration> HANDLER_DELAY =
      Setting.duration("handler-delay", Duration.ofMillis(5), Duration.ZERO, Duration.ofSeconds(10))
          .about("the handler's artificial delay");

  public static final Setting<Integer> WARMUP =
      Setting.integer("warmup", 300, 0, MAX_TOKENS).about("requests per route before measuring");

  public static final Setting<Duration> RUN_TIME_LIMIT =
      Setting.duration(
              "run-time-limit", Duration.ofSeconds(60), Duration.ofSeconds(1), Duration.ofDays(1))
          .about("hard limit per run");

  /** The settings of {@code parallel-auth}, in documentation order. */
  public static final SettingsSpec SPEC =
      SettingsSpec.of(CLIENTS, REQUESTS, ROUNDS, HANDLER_DELAY, WARMUP, RUN_TIME_LIMIT)
          .and(LaunchSettings.SPEC);

  /**
   * @param settings read by {@link #SPEC}
   * @throws IllegalArgumentException naming the first bad setting
   */
  public static ParallelAuthOptions from(Settings settings) {
    ParallelAuthOptions options =
        new ParallelAuthOptions(
            settings.get(CLIENTS),
            settings.get(REQUESTS),
            settings.get(ROUNDS),
            settings.get(HANDLER_DELAY),
            settings.get(WARMUP),
            settings.get(RUN_TIME_LIMIT),
            LaunchSettings.from(settings));
    if (options.rounds() > options.requests()) {
      throw new IllegalArgumentException(
          "rounds must be at most requests (" + options.requests() + "), was " + options.rounds());
    }
    if (options.tokensNeeded() > MAX_TOKENS) {
      throw new IllegalArgumentException(
          "requests: "
              + options.tokensNeeded()
              + " tokens "
              + "needed (3 runs per client count, each request a new token), at most "
              + MAX_TOKENS);
    }
    return options;
  }

  /**
   * @return the requests of round {@code round} (0-based) of each route
   */
  public int requestsInRound(int round) {
    return requests / rounds + (round < requests % rounds ? 1 : 0);
  }

  /**
   * @return new tokens used: auth-alone, sequential and parallel runs, warm-up included
   */
  public int tokensNeeded() {
    return 3 * (warmup + clients.size() * requests);
  }
}
