package io.okapigw.perf.load.faults;

import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import io.okapigw.perf.kit.launch.LaunchSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Settings of {@code faults}: the values of the settings declared here ({@link #SPEC}, with their
 * defaults).
 *
 * @param scenario which fault
 * @param users virtual users of the measured tenant
 * @param phase length of each phase (before, during, after)
 * @param warmup load before the first phase, not reported
 * @param floodFactor the flooding tenant's users per user of the measured tenant
 * @param gatewayJar our gateway's fat jar
 * @param gatewayArgs more settings for every gateway JVM of ours, passed through as they are
 * @param okapiJar Okapi's fat jar ({@code okapi-kill}), or {@code null}
 * @param basePort the first of the fixed ports (module instances, nginx, Okapi)
 * @param drainGrace how long a node told to stop may take before it is killed
 * @param balancer the load balancer in front of the cluster ({@code rolling-restart})
 * @param maxOperations hard cap on the operations of the run
 * @param hangFor how long the instance ({@code hang}) or the node ({@code node-pause}) stays
 *     stopped
 * @param latency how late the slow instance answers ({@code slow})
 * @param authtokenJar the authtoken module's fat jar ({@code auth-module}, {@code database}, {@code
 *     revoke-node-down})
 */
record FaultsOptions(
    Scenario scenario,
    int users,
    Duration phase,
    Duration warmup,
    int floodFactor,
    Path gatewayJar,
    List<String> gatewayArgs,
    Path okapiJar,
    int basePort,
    Duration drainGrace,
    Balancer balancer,
    long maxOperations,
    Duration hangFor,
    Duration latency,
    Path authtokenJar) {

  /** The scenarios. */
  enum Scenario {
    /** kill -9 one of two instances of mod-users, then start it again: our gateway. */
    KILL,
    /** The same against Okapi ({@code okapi-jar}). */
    OKAPI_KILL,
    /** SIGTERM each node of a 3-node cluster behind a load balancer in turn, start it again. */
    ROLLING_RESTART,
    /** A second tenant with {@code flood-factor} times the users beside the measured one. */
    FLOOD,
    /** SIGSTOP one of three instances of mod-users for {@code hang-for}, then SIGCONT. */
    HANG,
    /** One of three instances of mod-users answering {@code latency} late. */
    SLOW,
    /** The authtoken module frozen (SIGSTOP), let go, then killed ({@link AuthModuleDown}). */
    AUTH_MODULE,
    /** PostgreSQL stopped under the gateway and the authtoken module ({@link DatabaseAway}). */
    DATABASE,
    /**
     * Revocations with every node up, then with the one notified killed ({@link
     * RevocationNodeDown}).
     */
    REVOKE_NODE_DOWN,
    /**
     * One node of a 3-node cluster behind HAProxy stopped past Hazelcast's heartbeat timeout, then
     * let go on ({@link NodePause}).
     */
    NODE_PAUSE
  }

  /** The load balancers {@code rolling-restart} can put in front of the nodes. */
  enum Balancer {
    /** HAProxy: active health checks of each node's readiness, retries only where safe. */
    HAPROXY,
    /** nginx: passive health only ({@code max_fails}), a POST already sent is not retried. */
    NGINX
  }

  static final Setting<Scenario> SCENARIO =
      Setting.choice("scenario", Scenario.KILL)
          .about(
              "`kill`: kill -9 one of two instances of mod-users (the check-out calls it), then"
                  + " start it again; `okapi-kill`: the same with Okapi (`okapi-jar`) as the"
                  + " gateway; `rolling-restart`: SIGTERM each node of a 3-node cluster behind a load"
                  + " balancer (`balancer`) in turn and start it again; `flood`: another tenant with"
                  + " `flood-factor` times the users beside the measured one; `hang`: stop (SIGSTOP)"
                  + " one of three instances of mod-users for `hang-for`, then let it go on"
                  + " (SIGCONT); `slow`: one of three instances of mod-users answering `latency`"
                  + " late; "
                  + AuthModuleDown.ABOUT
                  + "; "
                  + DatabaseAway.ABOUT
                  + "; "
                  + RevocationNodeDown.ABOUT
                  + "; "
                  + NodePause.ABOUT);

  static final Setting<Integer> USERS =
      Setting.integer("users", 8, 1, 200).about("virtual users of the measured tenant");

  static final Setting<Duration> PHASE =
      Setting.duration(
              "phase", Duration.ofSeconds(10), Duration.ofSeconds(1), Duration.ofMinutes(10))
          .about(
              "each phase (before, during, after the fault); a restart phase lasts as long as the"
                  + " restart takes");

  static final Setting<Duration> WARMUP =
      Setting.duration("warmup", Duration.ofSeconds(5), Duration.ZERO, Duration.ofMinutes(10))
          .about("load before the first phase, not reported");

  static final Setting<Integer> FLOOD_FACTOR =
      Setting.integer("flood-factor", 10, 1, 50)
          .about("`flood`: the flooding tenant's virtual users per user of the measured tenant");

  static final Setting<String> GATEWAY_ARGS =
      Setting.text("gateway-args", "", "'ARGS'")
          .shownDefault("none")
          .about(
              "more settings for every gateway JVM of ours, passed through as they are (a"
                  + " tenant limit, say)");

  static final Setting<String> OKAPI_JAR =
      Setting.text("okapi-jar", "", "FILE")
          .shownDefault("none")
          .about(
              "`okapi-kill`: Okapi's okapi-core-fat.jar (6.1.5, say); without it the scenario"
                  + " is skipped with the reason");

  static final Setting<Integer> BASE_PORT =
      Setting.integer("base-port", 9500, 1024, 65000)
          .about(
              "the module instances' processes listen on +0..+10, +20..+30, +50..+60 and"
                  + " +70..+80, the load balancer (nginx or HAProxy) on +40, Okapi on +41 (our"
                  + " gateways on free ports)");

  static final Setting<Duration> DRAIN_GRACE =
      Setting.duration(
              "drain-grace", Duration.ofSeconds(60), Duration.ofSeconds(1), Duration.ofMinutes(10))
          .about(
              "`rolling-restart`: how long a node told to stop (SIGTERM) may take; then it is killed");

  static final Setting<Balancer> BALANCER =
      Setting.choice("balancer", Balancer.HAPROXY)
          .about(
              "`rolling-restart`: the load balancer in front of the nodes, Debian's HAProxy"
                  + " (active checks of `/_/proxy/health`, safe retries) or nginx (passive"
                  + " health only); a missing one stops the command naming its package");

  static final Setting<Integer> MAX_OPERATIONS =
      Setting.integer("max-operations", 1_000_000, 2, 100_000_000)
          .about("hard cap on the operations of the run");

  static final Setting<Duration> HANG_FOR =
      Setting.duration(
              "hang-for", Duration.ofSeconds(65), Duration.ofSeconds(5), Duration.ofMinutes(10))
          .about(
              "`hang`: how long the instance stays stopped (SIGSTOP); `node-pause`: how long node"
                  + " 3 does (longer if the others take longer to drop it and refuse the revoked"
                  + " permission)");

  static final Setting<Duration> LATENCY =
      Setting.duration(
              "latency", Duration.ofMillis(1500), Duration.ofMillis(1), Duration.ofMinutes(1))
          .about("`slow`: how late the slow instance answers every call");

  /** The settings of {@code faults}, in documentation order. */
  static final SettingsSpec SPEC =
      SettingsSpec.of(
          SCENARIO,
          USERS,
          PHASE,
          WARMUP,
          FLOOD_FACTOR,
          LaunchSettings.GATEWAY_JAR,
          GATEWAY_ARGS,
          OKAPI_JAR,
          BASE_PORT,
          DRAIN_GRACE,
          BALANCER,
          MAX_OPERATIONS,
          HANG_FOR,
          LATENCY,
          LaunchSettings.AUTHTOKEN_JAR);

  /**
   * @param s read by {@link #SPEC}
   * @throws IllegalArgumentException naming the bad setting
   */
  static FaultsOptions from(Settings s) {
    String okapi = s.get(OKAPI_JAR);
    return new FaultsOptions(
        s.get(SCENARIO),
        s.get(USERS),
        s.get(PHASE),
        s.get(WARMUP),
        s.get(FLOOD_FACTOR),
        Path.of(s.get(LaunchSettings.GATEWAY_JAR)),
        words(s.get(GATEWAY_ARGS)),
        okapi.isBlank() ? null : Path.of(okapi),
        s.get(BASE_PORT),
        s.get(DRAIN_GRACE),
        s.get(BALANCER),
        s.get(MAX_OPERATIONS),
        s.get(HANG_FOR),
        s.get(LATENCY),
        Path.of(s.get(LaunchSettings.AUTHTOKEN_JAR)));
  }

  /**
   * @return the words of {@code text}, split at white space
   */
  static List<String> words(String text) {
    return text.isBlank() ? List.of() : List.of(text.trim().split("\\s+"));
  }
}
