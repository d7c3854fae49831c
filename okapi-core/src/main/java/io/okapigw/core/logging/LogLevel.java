package io.okapigw.core.logging;

import io.okapigw.core.config.OkapiKeys;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.config.Configurator;

/** Okapi's {@code loglevel}: one level for every logger, set at start. */
public final class LogLevel {

  private LogLevel() {}

  /**
   * Sets every logger to the level given, else to the environment's {@code OKAPI_LOGLEVEL} (as
   * Okapi); with neither, the logging configuration decides.
   *
   * @param given the {@code loglevel} setting, already checked, or null
   * @param environment the value of {@code OKAPI_LOGLEVEL}, or null
   * @throws IllegalArgumentException naming {@code OKAPI_LOGLEVEL} if it is no level
   */
  public static void apply(String given, String environment) {
    String level = given;
    if (level == null && environment != null && !environment.isBlank()) {
      try {
        level = OkapiKeys.LOGLEVEL.parse(environment);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("OKAPI_LOGLEVEL (environment): " + e.getMessage(), e);
      }
    }
    if (level != null) {
      Configurator.setAllLevels(
          LogManager.getRootLogger().getName(), Level.toLevel(level.trim(), Level.INFO));
    }
  }
}
