package io.okapigw.perf.hop;

import io.okapigw.config.Settings;
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

  static final Set<String> KEYS =
      Set.of(
          "duration",
          "warmup",
          "rounds",
          "connections",
          "body-connections",
          "sizes",
          "via",
          "vs",
          "vs-pid",
          "base-port",
          "gateway-jar",
          "authtoken-jar",
          "gateway-heap",
          "gateway-jvm-args",
          "gateway-args");

  /**
   * @throws IllegalArgumentException naming the setting that is wrong
   */
  static HopOptions from(Settings settings) {
    settings.checkKnown(KEYS);
    String vsUrl = settings.string("vs", "");
    URI vs = vsUrl.isEmpty() ? null : loopback(vsUrl);
    Set<Via> vias = vias(settings.string("via", ""), vs != null);
    int basePort = settings.integer("base-port", 9400, 1024, 65000);
    return new HopOptions(
        positive("duration", settings.duration("duration", Duration.ofSeconds(10))),
        settings.duration("warmup", Duration.ofSeconds(20)),
        settings.duration("settle", Duration.ofSeconds(2)),
        settings.integer("rounds", 3, 1, 100),
        settings.integer("connections", 64, 1, 10_000),
        settings.integer("body-connections", 5, 1, 10_000),
        SizeArgs.parse("sizes", settings.string("sizes", "230B,16KB,16MB")),
        vias,
        vs,
        Long.parseLong(settings.string("vs-pid", "-1")),
        basePort,
        Path.of(settings.string("gateway-jar", "okapi-core/target/okapi-core-fat.jar")),
        Path.of(
            settings.string("authtoken-jar", "authtoken-module/target/authtoken-module-fat.jar")),
        Path.of(
            settings.string(
                "authtoken-descriptor", "authtoken-module/descriptors/ModuleDescriptor.json")),
        settings.string("gateway-heap", "256m"),
        words(settings.string("gateway-jvm-args", "")),
        words(settings.string("gateway-args", "")));
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

  private static Duration positive(String key, Duration d) {
    if (d.isZero() || d.isNegative()) {
      throw new IllegalArgumentException(key + " must be > 0");
    }
    return d;
  }

  private static List<String> words(String s) {
    return s.isBlank() ? List.of() : List.of(s.trim().split("\\s+"));
  }
}
