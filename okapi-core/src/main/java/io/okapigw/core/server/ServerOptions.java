package io.okapigw.core.server;

import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import java.time.Duration;

/**
 * What the gateway's listeners allow their clients ({@code server.*} settings): how long they wait
 * for them, so that a client cannot hold a connection open by sending nothing, or a request bit by
 * bit (slowloris), and how many connections each listener keeps open at once, so that clients
 * cannot take every file descriptor of the process. The timeouts hold on every listener: the public
 * one, the admin one ({@code admin.port}) and Okapi's {@code healthPort}. {@link Duration#ZERO}
 * turns a timeout off.
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
 * @param maxConnections the public listener's client connections open at once, on all its event
 *     loops (default 10,000); past it a new connection is closed at once
 * @param adminMaxConnections the same for the admin listener ({@code admin.port}; default 1,000)
 * @param healthMaxConnections the same for Okapi's {@code healthPort} listener (default 64: probes
 *     need a few)
 */
public record ServerOptions(
    Duration headerTimeout,
    Duration idleTimeout,
    int maxConnections,
    int adminMaxConnections,
    int healthMaxConnections) {

  public static final Duration DEFAULT_HEADER_TIMEOUT = Duration.ofSeconds(75);
  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(120);
  public static final int DEFAULT_MAX_CONNECTIONS = 10_000;
  public static final int DEFAULT_ADMIN_MAX_CONNECTIONS = 1_000;
  public static final int DEFAULT_HEALTH_MAX_CONNECTIONS = 64;

  private static final int MOST_CONNECTIONS = 1_000_000;

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

  public static final Setting<Integer> MAX_CONNECTIONS =
      Setting.integer("server.max-connections", DEFAULT_MAX_CONNECTIONS, 1, MOST_CONNECTIONS)
          .about(
              "client connections the public listener keeps open at once (all event loops);"
                  + " past it a new connection is closed at once, unanswered")
          .details(
              "Counted in `okapi_client_connections_refused_total{listener}`. Keep it below the"
                  + " process's open-file limit (`ulimit -n`) less the module connections"
                  + " (`proxy.max-connections` per instance and event loop); a load balancer in"
                  + " front needs far fewer.");

  public static final Setting<Integer> ADMIN_MAX_CONNECTIONS =
      Setting.integer(
              "server.admin-max-connections", DEFAULT_ADMIN_MAX_CONNECTIONS, 1, MOST_CONNECTIONS)
          .about("the same for the admin listener (`admin.port`)");

  public static final Setting<Integer> HEALTH_MAX_CONNECTIONS =
      Setting.integer(
              "server.health-max-connections", DEFAULT_HEALTH_MAX_CONNECTIONS, 1, MOST_CONNECTIONS)
          .about(
              "the same for Okapi's `healthPort` listener (probes need a few), but past it a new"
                  + " connection closes the oldest idle one (waiting for a request's head) and is"
                  + " served: idle connections cannot keep probes out");

  /** The {@code server.*} settings. */
  public static final SettingsSpec SETTINGS =
      SettingsSpec.of(
          HEADER_TIMEOUT,
          IDLE_TIMEOUT,
          MAX_CONNECTIONS,
          ADMIN_MAX_CONNECTIONS,
          HEALTH_MAX_CONNECTIONS);

  public ServerOptions {
    HEADER_TIMEOUT.check(headerTimeout);
    IDLE_TIMEOUT.check(idleTimeout);
    MAX_CONNECTIONS.check(maxConnections);
    ADMIN_MAX_CONNECTIONS.check(adminMaxConnections);
    HEALTH_MAX_CONNECTIONS.check(healthMaxConnections);
  }

  /**
   * @return the defaults
   */
  public static ServerOptions defaults() {
    return new ServerOptions(
        DEFAULT_HEADER_TIMEOUT,
        DEFAULT_IDLE_TIMEOUT,
        DEFAULT_MAX_CONNECTIONS,
        DEFAULT_ADMIN_MAX_CONNECTIONS,
        DEFAULT_HEALTH_MAX_CONNECTIONS);
  }

  /**
   * Reads the {@code server.*} settings.
   *
   * @throws IllegalArgumentException naming a bad setting
   */
  public static ServerOptions from(Settings settings) {
    return new ServerOptions(
        settings.get(HEADER_TIMEOUT),
        settings.get(IDLE_TIMEOUT),
        settings.get(MAX_CONNECTIONS),
        settings.get(ADMIN_MAX_CONNECTIONS),
        settings.get(HEALTH_MAX_CONNECTIONS));
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
