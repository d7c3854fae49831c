package io.okapigw.core.upstream;

import java.time.Duration;

/**
 * How the gateway talks to module instances.
 *
 * @param connectTimeout time to establish a connection (default 5 s)
 * @param idleTimeout longest silence while waiting for or reading a response (default 60 s)
 * @param maxConnectionsPerHost connection pool size per instance and event loop (default 64)
 * @param maxHeaderSize largest response header block accepted (default 64 KiB)
 */
public record UpstreamOptions(
    Duration connectTimeout, Duration idleTimeout, int maxConnectionsPerHost, int maxHeaderSize) {

  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(60);
  public static final int DEFAULT_MAX_CONNECTIONS_PER_HOST = 64;
  public static final int DEFAULT_MAX_HEADER_SIZE = 64 * 1024;

  public UpstreamOptions {
    positive(connectTimeout, "proxy.connect-timeout");
    positive(idleTimeout, "proxy.idle-timeout");
    if (maxConnectionsPerHost < 1) {
      throw new IllegalArgumentException(
          "proxy.max-connections must be >= 1, was " + maxConnectionsPerHost);
    }
  }

  /**
   * @return the defaults
   */
  public static UpstreamOptions defaults() {
    return new UpstreamOptions(
        DEFAULT_CONNECT_TIMEOUT,
        DEFAULT_IDLE_TIMEOUT,
        DEFAULT_MAX_CONNECTIONS_PER_HOST,
        DEFAULT_MAX_HEADER_SIZE);
  }

  private static void positive(Duration d, String name) {
    if (d == null || d.isZero() || d.isNegative()) {
      throw new IllegalArgumentException(name + " must be > 0, was " + d);
    }
  }
}
