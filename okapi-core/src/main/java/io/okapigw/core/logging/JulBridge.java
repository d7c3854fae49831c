package io.okapigw.core.logging;

import org.apache.logging.log4j.jul.Log4jBridgeHandler;

/**
 * Sends {@code java.util.logging} to Log4j 2: what the OpenTelemetry SDK logs (an exporter that
 * cannot reach its collector), and what Hazelcast writes before its own logging is set, then go
 * through {@code log4j2.xml} and {@code loglevel} like every other line, in the same layout (a JSON
 * one included), instead of as {@code java.util.logging}'s two-line records on stderr.
 */
public final class JulBridge {

  private JulBridge() {}

  /**
   * Replaces the handlers of {@code java.util.logging}'s root logger (its console handler) with
   * Log4j's bridge, whose levels follow Log4j's configuration. Call it once, at start, before the
   * libraries log; calling it again changes nothing.
   */
  public static synchronized void install() {
    Log4jBridgeHandler.install(true, null, true);
  }
}
