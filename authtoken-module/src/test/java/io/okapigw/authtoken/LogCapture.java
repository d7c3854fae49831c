package io.okapigw.authtoken;

import java.io.StringWriter;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.WriterAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.layout.PatternLayout;

/**
 * Records what a logger (and the loggers below it) writes at DEBUG and above, for tests asserting
 * what is, or is never, logged (instead of the console). Close it to detach.
 */
public final class LogCapture implements AutoCloseable {
  private final String name;
  private final StringWriter out = new StringWriter();
  private final WriterAppender appender;
  private final LoggerContext context = (LoggerContext) LogManager.getContext(false);

  /**
   * @param name logger name, e.g. a package
   */
  public LogCapture(String name) {
    this.name = name;
    appender =
        WriterAppender.newBuilder()
            .setName("capture-" + name)
            .setTarget(out)
            .setLayout(PatternLayout.newBuilder().withPattern("%level %c{1} - %msg%n").build())
            .build();
    appender.start();
    Configuration config = context.getConfiguration();
    LoggerConfig logger = new LoggerConfig(name, Level.DEBUG, false);
    logger.addAppender(appender, Level.DEBUG, null);
    config.addLogger(name, logger);
    context.updateLoggers();
  }

  /**
   * @return everything logged so far
   */
  public String text() {
    return out.toString();
  }

  @Override
  public void close() {
    context.getConfiguration().removeLogger(name);
    context.updateLoggers();
    appender.stop();
  }
}
