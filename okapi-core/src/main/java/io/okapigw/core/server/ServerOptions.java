package io.okapigw.core.server;

import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import java.time.Duration;

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

  public static final Duration DEFAULT_HEADER_TIMEOUT = Duration.ofSeconds(75);
  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(120);

  /** Vert.x takes the idle timeout as an int of milliseconds. */
  private static final Duration LONGEST = Duration.ofHours(24);

  public static final Setting<Duration> HEADER_TIMEOUT =
      Setting.duration("server.header-timeout", DEFAULT_HEADER_TIMEOUT, Duration.ZERO, LONGEST)
          .about(
              "a client's request headers must be complete this long after it connects or after"
                  + " its previous response, else its connection is closed; also how long an idle"
                  + " keep-alive connection stays open; 0: off")
          .details(
              "Stops slowloris clients that send nothing or a head bit by bit. The default"
                  + " outlasts the 60 s for which HTTP clients keep a pooled connection, so a"
                  + " module calling back never sends on a connection the gateway is closing.");

  public static final Setting<Duration> IDLE_TIMEOUT =
      Setting.duration("server.idle-timeout", DEFAULT_IDLE_TIMEOUT, Duration.ZERO, LONGEST)
          .about(
              "a client connection with no byte read or written this long is closed (a body"
                  + " stopped midway, a client that stopped reading); longer than"
                  + " `proxy.idle-timeout`; 0: off")
          .details(
              "A client sends and gets nothing while the gateway waits for a module (an auth"
                  + " filter and a handler in turn: twice as long). An install, enable, upgrade or"
                  + " disable is exempt while its modules' `_tenant` calls run (bounded by"
                  + " `tenant.init-timeout`).");

  /** The {@code server.*} settings. */
  public static final SettingsSpec SETTINGS = SettingsSpec.of(HEADER_TIMEOUT, IDLE_TIMEOUT);

  public ServerOptions {
    HEADER_TIMEOUT.check(headerTimeout);
    IDLE_TIMEOUT.check(idleTimeout);
  }

  /**
   * @return the defaults
   */
  public static ServerOptions defaults() {
    return new ServerOptions(DEFAULT_HEADER_TIMEOUT, DEFAULT_IDLE_TIMEOUT);
  }

  /**
   * Reads the {@code server.*} settings.
   *
   * @throws IllegalArgumentException naming a bad setting
   */
  public static ServerOptions from(Settings settings) {
    return new ServerOptions(settings.get(HEADER_TIMEOUT), settings.get(IDLE_TIMEOUT));
  }

  /**
   * @param moduleIdleTimeout {@code proxy.idle-timeout}
   * @throws IllegalArgumentException naming both settings when the idle timeout would close a
   *     client's connection while the gateway may still wait for a module
   */
  public void checkAgainst(Duration moduleIdleTimeout) {
    if (!idleTimeout.isZero() && idleTimeout.compareTo(moduleIdleTimeout) <= 0) {
      throw new IllegalArgumentException(
          IDLE_TIMEOUT.key()
              + " ("
              + idleTimeout.toMillis()
              + " ms)"
              + " must be longer than proxy.idle-timeout ("
              + moduleIdleTimeout.toMillis()
              + " ms): a client waits that long for a module without a byte on its connection");
    }
  }
}
