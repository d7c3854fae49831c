package io.okapigw.core.upstream;

import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import io.okapigw.core.upstream.balance.BalanceOptions;
import java.time.Duration;
import java.util.Objects;

/**
 * How the gateway calls module instances ({@code proxy.*} settings, declared here).
 *
 * @param connectTimeout time to establish a connection (default 5 s)
 * @param idleTimeout longest silence while waiting for or reading a response (default 60 s)
 * @param maxConnectionsPerHost connection pool size per instance and event loop (default 64)
 * @param maxHeaderSize largest response header block accepted (64 KiB; not a setting)
 * @param balance instance choice, outlier detection and retries ({@code proxy.outlier.*}, {@code
 *     proxy.retry.*})
 */
public record UpstreamOptions(
    Duration connectTimeout,
    Duration idleTimeout,
    int maxConnectionsPerHost,
    int maxHeaderSize,
    BalanceOptions balance) {

  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(60);
  public static final int DEFAULT_MAX_CONNECTIONS_PER_HOST = 64;
  public static final int DEFAULT_MAX_HEADER_SIZE = 64 * 1024;

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

  public static final Setting<Integer> MAX_CONNECTIONS =
      Setting.integer("proxy.max-connections", DEFAULT_MAX_CONNECTIONS_PER_HOST, 1, 10_000)
          .about("connection pool per module instance and event loop");

  /** The {@code proxy.*} settings. */
  public static final SettingsSpec SETTINGS =
      SettingsSpec.of(CONNECT_TIMEOUT, IDLE_TIMEOUT, MAX_CONNECTIONS).and(BalanceOptions.SETTINGS);

  public UpstreamOptions {
    CONNECT_TIMEOUT.check(connectTimeout);
    IDLE_TIMEOUT.check(idleTimeout);
    MAX_CONNECTIONS.check(maxConnectionsPerHost);
    Objects.requireNonNull(balance, "balance");
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
        BalanceOptions.defaults());
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
        BalanceOptions.from(settings));
  }

  /**
   * @return these options with {@code balance}
   */
  public UpstreamOptions withBalance(BalanceOptions balance) {
    return new UpstreamOptions(
        connectTimeout, idleTimeout, maxConnectionsPerHost, maxHeaderSize, balance);
  }
}
