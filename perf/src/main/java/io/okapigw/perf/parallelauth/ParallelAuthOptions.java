package io.okapigw.perf.parallelauth;

import io.okapigw.config.Settings;
import io.okapigw.perf.fullfake.BenchFlags;
import io.okapigw.perf.fullfake.Launcher;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * Settings of the {@code parallel-auth} command; {@link #from(Settings)} validates them and names
 * the bad flag.
 *
 * @param clients the client counts (default 1,8,32)
 * @param requests requests per client count and route (default 1000); each gateway route needs that
 *     many new tokens
 * @param rounds the requests of each client count are split into this many rounds, each running
 *     every route in turn (default 5), so that a change in the machine's load hits all alike
 * @param handlerDelay the handler's artificial delay (default 5ms)
 * @param warmup requests per route before measuring (default 300)
 * @param runTimeLimit hard limit per run (default 60s)
 * @param gatewayHeap each gateway's {@code -Xmx} (default 256m)
 * @param inProcess run everything in this JVM (tests) instead of separate processes
 * @param jars the gateway and authtoken fat jars (separate processes only)
 */
public record ParallelAuthOptions(
    List<Integer> clients,
    int requests,
    int rounds,
    Duration handlerDelay,
    int warmup,
    Duration runTimeLimit,
    String gatewayHeap,
    boolean inProcess,
    Launcher.Jars jars) {

  /** The flags {@code parallel-auth} knows. */
  public static final Set<String> KEYS =
      Set.of(
          "clients",
          "requests",
          "rounds",
          "handler-delay",
          "warmup",
          "run-time-limit",
          "gateway-heap",
          "in-process",
          "gateway-jar",
          "authtoken-jar");

  /** Most tokens a run may need: logins are cheap, but each is a session in the auth store. */
  public static final int MAX_TOKENS = 200_000;

  /**
   * @throws IllegalArgumentException naming the first bad or unknown flag
   */
  public static ParallelAuthOptions from(Settings settings) {
    settings.checkKnown(KEYS);
    boolean inProcess = settings.bool("in-process", false);
    Duration delay = settings.duration("handler-delay", Duration.ofMillis(5));
    Duration limit = settings.duration("run-time-limit", Duration.ofSeconds(60));
    if (delay.toMillis() > 10_000 || limit.isZero()) {
      throw new IllegalArgumentException(
          "handler-delay must be at most 10s and run-time-limit " + "more than 0");
    }
    ParallelAuthOptions options =
        new ParallelAuthOptions(
            BenchFlags.integers(settings, "clients", "1,8,32", 1, 256),
            settings.integer("requests", 1000, 1, MAX_TOKENS),
            settings.integer("rounds", 5, 1, 100),
            delay,
            settings.integer("warmup", 300, 0, MAX_TOKENS),
            limit,
            BenchFlags.heap(settings, "gateway-heap", "256m"),
            inProcess,
            new Launcher.Jars(
                BenchFlags.jar(settings, "gateway-jar", BenchFlags.DEFAULT_GATEWAY_JAR, !inProcess),
                BenchFlags.jar(
                    settings, "authtoken-jar", BenchFlags.DEFAULT_AUTHTOKEN_JAR, !inProcess)));
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
