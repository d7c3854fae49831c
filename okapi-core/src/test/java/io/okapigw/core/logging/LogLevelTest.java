package io.okapigw.core.logging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Okapi's {@code loglevel} and {@code OKAPI_LOGLEVEL}: every logger's level. */
class LogLevelTest {

  @AfterEach
  void restoreTheConfiguration() {
    ((LoggerContext) LogManager.getContext(false)).reconfigure();
  }

  @Test
  void given_everyLoggerAtThatLevel() {
    LogLevel.apply("warn", "DEBUG");
    assertThat(LogManager.getRootLogger().getLevel()).isEqualTo(Level.WARN);
    assertThat(LogManager.getLogger("io.vertx.core").getLevel()).isEqualTo(Level.WARN);
  }

  @Test
  void notGiven_theEnvironmentsOkapiLoglevel() {
    LogLevel.apply(null, "DEBUG");
    assertThat(LogManager.getRootLogger().getLevel()).isEqualTo(Level.DEBUG);
  }

  @Test
  void neither_theConfigurationDecides() {
    Level root = LogManager.getRootLogger().getLevel();
    Level vertx = LogManager.getLogger("io.vertx.core").getLevel();
    LogLevel.apply(null, " ");
    assertThat(LogManager.getRootLogger().getLevel()).isEqualTo(root);
    assertThat(LogManager.getLogger("io.vertx.core").getLevel())
        .isEqualTo(vertx)
        .isNotEqualTo(root);
  }

  @Test
  void badEnvironment_refusedNamingIt() {
    assertThatThrownBy(() -> LogLevel.apply(null, "LOUD"))
        .hasMessage(
            "OKAPI_LOGLEVEL (environment): loglevel must be one of off, fatal, error, warn, info,"
                + " debug, trace, all, was 'LOUD'");
  }
}
