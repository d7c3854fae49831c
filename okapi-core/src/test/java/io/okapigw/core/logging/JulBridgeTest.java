package io.okapigw.core.logging;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a library writes to {@code java.util.logging} (the OpenTelemetry SDK's export failures)
 * reaches Log4j 2, with its level and logger name, and no longer JUL's console handler.
 */
class JulBridgeTest {

  private final Handler[] before = Logger.getLogger("").getHandlers();
  private final LoggerContext context = LoggerContext.getContext(false);
  private final java.util.List<LogEvent> events =
      java.util.Collections.synchronizedList(new java.util.ArrayList<>());
  private final AbstractAppender appender =
      new AbstractAppender("jul-bridge-test", null, null, true, Property.EMPTY_ARRAY) {
        @Override
        public void append(LogEvent event) {
          events.add(event.toImmutable());
        }
      };

  @AfterEach
  void restore() {
    context.getConfiguration().getRootLogger().removeAppender(appender.getName());
    context.updateLoggers();
    Logger root = Logger.getLogger("");
    Arrays.stream(root.getHandlers()).forEach(root::removeHandler);
    Arrays.stream(before).forEach(root::addHandler);
  }

  @Test
  void julRecord_reachesLog4j_consoleHandlerGone() {
    appender.start();
    LoggerConfig root = context.getConfiguration().getRootLogger();
    root.addAppender(appender, org.apache.logging.log4j.Level.ALL, null);
    context.updateLoggers();

    JulBridge.install();
    JulBridge.install();
    Logger.getLogger("io.opentelemetry.sdk.test")
        .log(Level.SEVERE, "Failed to export 21 spans.", new IllegalStateException("refused"));

    assertThat(Logger.getLogger("").getHandlers())
        .singleElement()
        .satisfies(h -> assertThat(h.getClass().getSimpleName()).isEqualTo("Log4jBridgeHandler"));
    assertThat(events)
        .filteredOn(e -> e.getLoggerName().equals("io.opentelemetry.sdk.test"))
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.getLevel()).isEqualTo(org.apache.logging.log4j.Level.ERROR);
              assertThat(e.getMessage().getFormattedMessage())
                  .isEqualTo("Failed to export 21 spans.");
              assertThat(e.getThrown()).hasMessage("refused");
            });
  }
}
