package io.okapigw.perf.hop;

import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import io.okapigw.config.Sizes;
import io.okapigw.perf.kit.launch.LaunchSettings;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Settings of {@code hop-compare}; defaults in one place, checked at start.
 *
 * @param duration each measured wrk run
 * @param warmup the wrk run before the rounds, per way and size (JIT, connection pools)
 * @param settle unmeasured load right before each measured run (a process idle while the others
 *     were measured meets the load warm again)
 * @param rounds rounds; each measures every way once, in {@link Via} order
 * @param connections wrk connections for small bodies
 * @param bodyConnections wrk connections for bodies of {@link HopTable#SMALL_BELOW} and more
 * @param sizes the body sizes
 * @param vias the ways measured
 * @param vs the other running gateway, or null
 * @param vsPid its process id for the CPU figures, or -1 to look up who listens on its port
 * @param basePort the module listens on basePort+1, nginx +2, our gateway +3, authtoken +4, the
 *     Vert.x relay +5, the Netty relay +6
 * @param gatewayJar our gateway's fat jar
 * @param authtokenJar the authtoken module's fat jar
 * @param authtokenDescriptor the authtoken module's descriptor
 * @param gatewayHeap our gateway's -Xmx
 * @param gatewayJvmArgs more JVM options for our gateway (a profiler, say)
 * @param gatewayArgs more settings for our gateway ({@code --instances 1}, say)
 */
record HopOptions(
    Duration duration,
    Duration warmup,
    Duration settle,
    int rounds,
    int connections,
    int bodyConnections,
    List<Long> sizes,
    Set<Via> vias,
    URI vs,
    long vsPid,
    int basePort,
    Path gatewayJar,
    Path authtokenJar,
    Path authtokenDescriptor,
    String gatewayHeap,
    List<String> gatewayJvmArgs,
    List<String> gatewayArgs) {

  static final Setting<Duration> DURATION =
      Setting.duration(
              "duration", Duration.ofSeconds(10), Duration.ofSeconds(1), Duration.ofHours(1))
          .about("each measured wrk run");

  static final Setting<Duration> WARMUP =
      Setting.duration("warmup", Duration.ofSeconds(20), Duration.ZERO, Duration.ofHours(1))
          .about("a wrk run before the rounds, per way and size (JIT, connection pools)");

  static final Setting<Duration> SETTLE =
      Setting.duration("settle", Duration.ofSeconds(2), Duration.ZERO, Duration.ofMinutes(10))
          .about("unmeasured load right before each measured run");

  static final Setting<Integer> ROUNDS =
      Setting.integer("rounds", 3, 1, 100).about("rounds; each measures every way once");

  static final Setting<Integer> CONNECTIONS =
      Setting.integer("connections", 64, 1, 10_000).about("wrk connections for small bodies");

  static final Setting<Integer> BODY_CONNECTIONS =
      Setting.integer("body-connections", 5, 1, 10_000)
          .about("wrk connections for bodies of 16KB and more");

  static final Setting<List<Long>> SIZES =
      Setting.sizes("sizes", List.of(230L, 16 * Sizes.KB, 16 * Sizes.MB), 0, Sizes.GB)
          .about("the body sizes the module answers");

  static final Setting<String> VIA =
      Setting.text("via", "", "WAY,...")
          .shownDefault("direct,nginx,ours,ours+auth (and vs with --vs)")
          .about(
              "the ways measured, of direct, nginx, netty-relay, vertx-relay, ours, ours+auth, vs"
                  + " (the two relays: floors for a JVM proxy)");

  static final Setting<String> VS =
      Setting.text("vs", "", "URL")
          .shownDefault("none")
          .about("another running gateway on 127.0.0.1 (an Okapi, say), measured as `vs`");

  static final Setting<Integer> VS_PID =
      Setting.integer("vs-pid", -1, -1, Integer.MAX_VALUE)
          .shownDefault("the process listening on its port")
          .about("the `--vs` gateway's process id, for its CPU figures");

  static final Setting<Integer> BASE_PORT =
      Setting.integer("base-port", 9400, 1024, 65000)
          .about(
              "the module listens on +1, nginx +2, our gateway +3, authtoken +4, the relays +5, +6");

  static final Setting<String> AUTHTOKEN_DESCRIPTOR =
      Setting.text(
              "authtoken-descriptor", "authtoken-module/descriptors/ModuleDescriptor.json", "FILE")
          .about("the authtoken module's descriptor");

  static final Setting<String> GATEWAY_JVM_ARGS =
      Setting.text("gateway-jvm-args", "", "'ARGS'")
          .shownDefault("none")
          .about("more JVM options for our gateway (a profiler, say)");

  static final Setting<String> GATEWAY_ARGS =
      Setting.text("gateway-args", "", "'ARGS'")
          .shownDefault("none")
          .about("more settings for our gateway (`--instances 1`, say)");

  /** The settings of {@code hop-compare}, in documentation order. */
  static final SettingsSpec SPEC =
      SettingsSpec.of(
          DURATION,
          WARMUP,
          SETTLE,
          ROUNDS,
          CONNECTIONS,
          BODY_CONNECTIONS,
          SIZES,
          VIA,
          VS,
          VS_PID,
          BASE_PORT,
          LaunchSettings.GATEWAY_JAR,
          LaunchSettings.AUTHTOKEN_JAR,
          AUTHTOKEN_DESCRIPTOR,
          LaunchSettings.GATEWAY_HEAP,
          GATEWAY_JVM_ARGS,
          GATEWAY_ARGS);

  /**
   * @param settings read by {@link #SPEC}
   * @throws IllegalArgumentException naming the setting that is wrong
   */
  static HopOptions from(Settings settings) {
    String vsUrl = settings.get(VS);
    URI vs = vsUrl.isEmpty() ? null : loopback(vsUrl);
    return new HopOptions(
        settings.get(DURATION),
        settings.get(WARMUP),
        settings.get(SETTLE),
        settings.get(ROUNDS),
        settings.get(CONNECTIONS),
        settings.get(BODY_CONNECTIONS),
        settings.get(SIZES),
        vias(settings.get(VIA), vs != null),
        vs,
        settings.get(VS_PID),
        settings.get(BASE_PORT),
        Path.of(settings.get(LaunchSettings.GATEWAY_JAR)),
        Path.of(settings.get(LaunchSettings.AUTHTOKEN_JAR)),
        Path.of(settings.get(AUTHTOKEN_DESCRIPTOR)),
        settings.get(LaunchSettings.GATEWAY_HEAP),
        words(settings.get(GATEWAY_JVM_ARGS)),
        words(settings.get(GATEWAY_ARGS)));
  }

  /**
   * @return wrk connections for bodies of {@code size}
   */
  int connectionsFor(long size) {
    return size < HopTable.SMALL_BELOW ? connections : bodyConnections;
  }

  /**
   * @return how long the measuring takes, start-up not counted
   */
  Duration plannedTime() {
    long runs = (long) sizes.size() * vias.size();
    return warmup.multipliedBy(runs).plus(duration.plus(settle).multipliedBy(runs * rounds));
  }

  private static Set<Via> vias(String list, boolean withVs) {
    if (list.isEmpty()) {
      EnumSet<Via> all = EnumSet.noneOf(Via.class);
      for (Via v : Via.values()) {
        if (v.byDefault() || v == Via.VS && withVs) {
          all.add(v);
        }
      }
      return all;
    }
    EnumSet<Via> chosen = EnumSet.noneOf(Via.class);
    for (String name : list.split(",")) {
      chosen.add(via(name.trim()));
    }
    if (chosen.contains(Via.VS) && !withVs) {
      throw new IllegalArgumentException("via: vs needs --vs URL");
    }
    return chosen;
  }

  private static Via via(String label) {
    for (Via v : Via.values()) {
      if (v.label().equals(label.toLowerCase(Locale.ROOT))) {
        return v;
      }
    }
    throw new IllegalArgumentException(
        "via: one of direct, nginx, netty-relay, vertx-relay, ours, ours+auth, vs, was '"
            + label
            + "'");
  }

  private static URI loopback(String url) {
    URI uri = URI.create(url);
    if (!"http".equals(uri.getScheme())
        || !("127.0.0.1".equals(uri.getHost()) || "localhost".equals(uri.getHost()))
        || uri.getPort() < 0) {
      throw new IllegalArgumentException(
          "vs: an http URL on 127.0.0.1 with a port, was '" + url + "'");
    }
    return uri;
  }

  private static List<String> words(String s) {
    return s.isBlank() ? List.of() : List.of(s.trim().split("\\s+"));
  }
}
