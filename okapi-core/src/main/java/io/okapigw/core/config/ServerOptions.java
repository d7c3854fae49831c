package io.okapigw.core.config;

import io.okapigw.config.Settings;
import io.okapigw.core.upstream.UpstreamOptions;
import java.time.Duration;
import java.util.Set;

/**
 * How long the gateway's listeners wait for their clients ({@code server.*} settings), so that a
 * client cannot hold a connection open by sending nothing, or a request bit by bit (slowloris).
 * {@link Duration#ZERO} turns a timeout off.
 *
 * @param headerTimeout complete request headers must arrive within this long of the connection
 *     opening or of the previous response ending, else the connection is closed; so it is also how
 *     long an idle keep-alive connection is kept (default 75 s, as nginx's keep-alive: longer than
 *     the 60 s for which Vert.x and other HTTP clients keep a pooled connection, so a module
 *     calling back through the gateway never sends a request on a connection the gateway is
 *     closing)
 * @param idleTimeout a connection with no byte read or written for this long is closed: a body that
 *     stops midway, a client that stops reading. Longer than {@code proxy.idle-timeout}, since a
 *     client legitimately sends and gets nothing while the gateway waits for a module (default 120
 *     s: an auth filter and a handler each taking up to the default 60 s)
 */
public record ServerOptions(Duration headerTimeout, Duration idleTimeout) {

  public static final String HEADER_TIMEOUT = "server.header-timeout";
  public static final String IDLE_TIMEOUT = "server.idle-timeout";

  /** The setting keys. */
  public static final Set<String> KEYS = Set.of(HEADER_TIMEOUT, IDLE_TIMEOUT);

  public static final Duration DEFAULT_HEADER_TIMEOUT = Duration.ofSeconds(75);
  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(120);

  /** Vert.x takes the idle timeout as an int of milliseconds. */
  private static final Duration LONGEST = Duration.ofHours(24);

  public ServerOptions {
    notNegative(headerTimeout, HEADER_TIMEOUT);
    notNegative(idleTimeout, IDLE_TIMEOUT);
  }

  /**
   * @return the defaults
   */
  public static ServerOptions defaults() {
    return new ServerOptions(DEFAULT_HEADER_TIMEOUT, DEFAULT_IDLE_TIMEOUT);
  }

  static ServerOptions from(Settings settings) {
    return new ServerOptions(
        settings.duration(HEADER_TIMEOUT, DEFAULT_HEADER_TIMEOUT),
        settings.duration(IDLE_TIMEOUT, DEFAULT_IDLE_TIMEOUT));
  }

  /**
   * @throws IllegalArgumentException naming both settings when the idle timeout would close a
   *     client's connection while the gateway may still wait for a module
   */
  void checkAgainst(UpstreamOptions upstream) {
    if (!idleTimeout.isZero() && idleTimeout.compareTo(upstream.idleTimeout()) <= 0) {
      throw new IllegalArgumentException(
          IDLE_TIMEOUT
              + " ("
              + idleTimeout.toMillis()
              + " ms)"
              + " must be longer than proxy.idle-timeout ("
              + upstream.idleTimeout().toMillis()
              + " ms): a client waits that long for a module without a byte on its connection");
    }
  }

  private static void notNegative(Duration d, String name) {
    if (d == null || d.isNegative() || d.compareTo(LONGEST) > 0) {
      throw new IllegalArgumentException(name + " must be between 0 (off) and 24h, was " + d);
    }
  }
}
