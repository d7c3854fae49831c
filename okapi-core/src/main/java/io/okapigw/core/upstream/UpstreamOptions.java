package io.okapigw.core.upstream;

import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import io.okapigw.core.registry.ModuleId;
import io.okapigw.core.upstream.balance.BalanceOptions;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * How the gateway calls module instances ({@code proxy.*} settings, declared here).
 *
 * @param connectTimeout time to establish a connection (default 5 s)
 * @param idleTimeout longest silence while waiting for or reading a response (default 60 s)
 * @param maxConnectionsPerHost connection pool size per instance and event loop (default 64)
 * @param maxHeaderSize largest response header block accepted (64 KiB; not a setting)
 * @param moduleTimeouts per module name or id, the idle timeout of its handler and filter calls
 *     instead of {@code idleTimeout} (default none)
 * @param balance instance choice, outlier detection and retries ({@code proxy.outlier.*}, {@code
 *     proxy.retry.*})
 * @param reuseQuiet how long a pooled connection must have stayed silent after its call before
 *     another call is sent on it (default 20 ms; 0: at once)
 */
public record UpstreamOptions(
    Duration connectTimeout,
    Duration idleTimeout,
    int maxConnectionsPerHost,
    int maxHeaderSize,
    Map<String, Duration> moduleTimeouts,
    BalanceOptions balance,
    Duration reuseQuiet) {

  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(60);
  public static final int DEFAULT_MAX_CONNECTIONS_PER_HOST = 64;
  public static final int DEFAULT_MAX_HEADER_SIZE = 64 * 1024;
  public static final Duration DEFAULT_REUSE_QUIET = Duration.ofMillis(20);

  private static final Duration MS = Duration.ofMillis(1);
  private static final Duration DAY = Duration.ofDays(1);

  public static final Setting<Duration> CONNECT_TIMEOUT =
      Setting.duration("proxy.connect-timeout", DEFAULT_CONNECT_TIMEOUT, MS, DAY)
          .about("connect timeout to module instances (then 502 naming the module)");

  public static final Setting<Duration> IDLE_TIMEOUT =
      Setting.duration("proxy.idle-timeout", DEFAULT_IDLE_TIMEOUT, MS, DAY)
          .about(
              "longest silence of a module instance while the gateway waits for or reads its"
                  + " response (then 504 naming the module)")
          .details(
              "While a client's body is relayed, it runs from the client's last bytes (a stopped"
                  + " upload: 408).");

  private static final String PER_MODULE = "MODULE=DURATION,...";

  /** One module's timeout: its values read as this setting's, by the one duration rule. */
  private static final Setting<Duration> MODULE_TIMEOUT_VALUE =
      Setting.duration("proxy.module-timeout", DEFAULT_IDLE_TIMEOUT, MS, DAY);

  public static final Setting<String> MODULE_TIMEOUT =
      Setting.text("proxy.module-timeout", null, PER_MODULE)
          .check(
              v -> moduleTimeouts(v) != null,
              "a list of module=duration (a module's name, or its id; a duration such as 500ms,"
                  + " 5s, 1m), separated by commas")
          .about(
              "per module, how long its instances may stay silent on a client's request (its"
                  + " handler and filter calls) instead of `proxy.idle-timeout`, e.g."
                  + " `mod-inventory-storage=5s,mod-search=30s` (a name: every version; an id: that"
                  + " one)")
          .details(
              "Shorter than its callers' own timeouts (FOLIO modules give up on a call after"
                  + " 10-60 s), a call to a hung or very slow instance ends as 504 before they give"
                  + " up, counts against the instance, and a GET, HEAD or OPTIONS goes once to"
                  + " another instance (within the retry budget).");

  public static final Setting<Integer> MAX_CONNECTIONS =
      Setting.integer("proxy.max-connections", DEFAULT_MAX_CONNECTIONS_PER_HOST, 1, 10_000)
          .about("connection pool per module instance and event loop");

  public static final Setting<Duration> REUSE_QUIET =
      Setting.duration(
              "proxy.reuse-quiet", DEFAULT_REUSE_QUIET, Duration.ZERO, Duration.ofMinutes(10))
          .about(
              "how long a pooled module connection must stay silent after its call's answer"
                  + " before another call is sent on it (0: at once)")
          .details(
              "A second answer nobody asked for that comes within it is seen on an idle"
                  + " connection: the connection is closed and the instance ejected for breaking"
                  + " HTTP, never relayed as the next call's answer. A call that finds no quiet"
                  + " connection opens a new one.");

  /** The {@code proxy.*} settings. */
  public static final SettingsSpec SETTINGS =
      SettingsSpec.of(CONNECT_TIMEOUT, IDLE_TIMEOUT, MODULE_TIMEOUT, MAX_CONNECTIONS, REUSE_QUIET)
          .and(BalanceOptions.SETTINGS);

  public UpstreamOptions {
    CONNECT_TIMEOUT.check(connectTimeout);
    IDLE_TIMEOUT.check(idleTimeout);
    MAX_CONNECTIONS.check(maxConnectionsPerHost);
    moduleTimeouts = Map.copyOf(moduleTimeouts);
    moduleTimeouts.values().forEach(MODULE_TIMEOUT_VALUE::check);
    Objects.requireNonNull(balance, "balance");
    REUSE_QUIET.check(reuseQuiet);
  }

  /**
   * @return the defaults
   */
  public static UpstreamOptions defaults() {
    return new UpstreamOptions(
        DEFAULT_CONNECT_TIMEOUT,
        DEFAULT_IDLE_TIMEOUT,
        DEFAULT_MAX_CONNECTIONS_PER_HOST,
        DEFAULT_MAX_HEADER_SIZE,
        Map.of(),
        BalanceOptions.defaults(),
        DEFAULT_REUSE_QUIET);
  }

  /**
   * Reads the {@code proxy.*} settings.
   *
   * @throws IllegalArgumentException naming a bad setting
   */
  public static UpstreamOptions from(Settings settings) {
    return new UpstreamOptions(
        settings.get(CONNECT_TIMEOUT),
        settings.get(IDLE_TIMEOUT),
        settings.get(MAX_CONNECTIONS),
        DEFAULT_MAX_HEADER_SIZE,
        settings.get(MODULE_TIMEOUT) == null
            ? Map.of()
            : moduleTimeouts(settings.get(MODULE_TIMEOUT)),
        BalanceOptions.from(settings),
        settings.get(REUSE_QUIET));
  }

  /**
   * @return these options with {@code balance}
   */
  public UpstreamOptions withBalance(BalanceOptions balance) {
    return new UpstreamOptions(
        connectTimeout,
        idleTimeout,
        maxConnectionsPerHost,
        maxHeaderSize,
        moduleTimeouts,
        balance,
        reuseQuiet);
  }

  /**
   * @return these options with {@code timeouts} per module name or id ({@code
   *     proxy.module-timeout})
   */
  public UpstreamOptions withModuleTimeouts(Map<String, Duration> timeouts) {
    return new UpstreamOptions(
        connectTimeout,
        idleTimeout,
        maxConnectionsPerHost,
        maxHeaderSize,
        timeouts,
        balance,
        reuseQuiet);
  }

  /**
   * @return these options with pooled connections reused after {@code quiet} of silence
   */
  public UpstreamOptions withReuseQuiet(Duration quiet) {
    return new UpstreamOptions(
        connectTimeout,
        idleTimeout,
        maxConnectionsPerHost,
        maxHeaderSize,
        moduleTimeouts,
        balance,
        quiet);
  }

  /**
   * @return the module's own timeout ({@code proxy.module-timeout}: its id's, else its name's), or
   *     null if it has none
   */
  public Duration moduleTimeout(String moduleId) {
    if (moduleTimeouts.isEmpty()) {
      return null;
    }
    Duration own = moduleTimeouts.get(moduleId);
    return own != null ? own : moduleTimeouts.get(ModuleId.lenient(moduleId).product());
  }

  /**
   * @return how long the module's instances may stay silent on a client's request: its own timeout,
   *     else {@code proxy.idle-timeout}
   */
  public Duration callTimeout(String moduleId) {
    Duration own = moduleTimeout(moduleId);
    return own != null ? own : idleTimeout;
  }

  /** {@code a=5s,b=1m} as a map; null if it is not such a list. */
  static Map<String, Duration> moduleTimeouts(String text) {
    Map<String, Duration> timeouts = new LinkedHashMap<>();
    for (String entry : text.split(",", -1)) {
      String[] parts = entry.trim().split("=", -1);
      if (parts.length != 2 || parts[0].isBlank() || parts[1].isBlank()) {
        return null;
      }
      try {
        timeouts.put(parts[0].trim(), MODULE_TIMEOUT_VALUE.parse(parts[1].trim()));
      } catch (IllegalArgumentException e) {
        return null;
      }
    }
    return timeouts;
  }
}
