package io.okapigw.core.config;

import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import java.time.Duration;

/**
 * How a node shows itself to operators, under Okapi's names for these settings.
 *
 * @param nodeName the node's name in {@code /_/discovery/nodes} ({@code nodeName}, by which {@code
 *     /_/discovery/nodes/{id}} finds it too); null for none
 * @param healthPort a listener answering {@code GET /readiness} and {@code GET /liveness} as Okapi
 *     does; {@link #NONE} for none
 * @param logWait how often a request still waiting for its answer is logged ({@code WAIT}); zero
 *     for never
 */
public record NodeOptions(String nodeName, int healthPort, Duration logWait) {

  /** No health listener. */
  public static final int NONE = 0;

  public static final Setting<String> NODENAME =
      Setting.text("nodename", null, "NAME")
          .alias("nodename")
          .about("this node's name in `/_/discovery/nodes` (`nodeName`), which finds it too");

  public static final Setting<Integer> HEALTH_PORT =
      Setting.integer("healthPort", NONE, 0, 65535)
          .alias("healthPort")
          .about(
              "a listener answering `GET /readiness` (204 once the node serves, 503 once it"
                  + " drains) and `GET /liveness` (204: the process is alive), as Okapi; 0: none")
          .details(
              "Neither asks the database: the registry is served from memory while PostgreSQL is"
                  + " away (Okapi's liveness asks its tenant store). Beside `/_/proxy/health` on"
                  + " the main port, which needs no token either.");

  public static final Setting<Integer> LOG_WAIT_MS =
      Setting.integer("log_wait_ms", 0, 0, 86_400_000)
          .alias("log_wait_ms")
          .about(
              "every this many milliseconds a request still waiting for its answer is logged"
                  + " (`WAIT`, its request id, tenant, method, path, time so far and modules), as"
                  + " Okapi; 0: never");

  /** The node's settings under Okapi's names. */
  public static final SettingsSpec SETTINGS = SettingsSpec.of(NODENAME, HEALTH_PORT, LOG_WAIT_MS);

  public NodeOptions {
    HEALTH_PORT.check(healthPort);
    if (logWait.isNegative()) {
      throw new IllegalArgumentException("log_wait_ms must be at least 0, was " + logWait);
    }
  }

  /**
   * @return no node name, no health listener, no wait log
   */
  public static NodeOptions defaults() {
    return new NodeOptions(null, NONE, Duration.ZERO);
  }

  static NodeOptions from(Settings settings) {
    return new NodeOptions(
        settings.get(NODENAME),
        settings.get(HEALTH_PORT),
        Duration.ofMillis(settings.get(LOG_WAIT_MS)));
  }

  /**
   * @return whether the node has a health listener
   */
  public boolean hasHealthListener() {
    return healthPort != NONE;
  }
}
