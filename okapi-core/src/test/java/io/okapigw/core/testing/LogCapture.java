package io.okapigw.core.testing;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.WriterAppender;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.layout.PatternLayout;

/**
 * Records every line the gateway's process would write to its log with the production
 * configuration, stack traces included, as they would appear: whatever reaches Log4j 2's root
 * logger (turned to INFO, as in {@code log4j2.xml}; the libraries' loggers keep their levels), and
 * whatever is written to {@code java.util.logging} (where {@code System.Logger} goes when nothing
 * routes it, and the JDK prints it to stderr). Close it to detach.
 */
public final class LogCapture implements AutoCloseable {

  private final StringWriter log4j = new StringWriter();
  private final StringWriter jul = new StringWriter();
  private final LoggerContext context = (LoggerContext) LogManager.getContext(false);
  private final WriterAppender appender;
  private final Level rootLevel;
  private final Handler julHandler;

  public LogCapture() {
    appender =
        WriterAppender.newBuilder()
            .setName("capture-all")
            .setTarget(log4j)
            .setLayout(PatternLayout.newBuilder().withPattern("%level %c{1} - %msg%n").build())
            .build();
    appender.start();
    LoggerConfig root = context.getConfiguration().getRootLogger();
    rootLevel = root.getLevel();
    root.addAppender(appender, Level.ALL, null);
    root.setLevel(Level.INFO);
    context.updateLoggers();
    julHandler =
        new Handler() {
          @Override
          public void publish(LogRecord record) {
            synchronized (jul) {
              jul.write(
                  record.getLevel()
                      + " "
                      + record.getLoggerName()
                      + " - "
                      + record.getMessage()
                      + "\n");
              if (record.getThrown() != null) {
                record.getThrown().printStackTrace(new PrintWriter(jul));
              }
            }
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    java.util.logging.Logger.getLogger("").addHandler(julHandler);
  }

  /**
   * @return everything logged so far, Log4j's lines then java.util.logging's
   */
  public String text() {
    synchronized (jul) {
      return log4j + jul.toString();
    }
  }

  /**
   * @return {@link #text()} as lines
   */
  public List<String> lines() {
    String text = text();
    return text.isEmpty() ? List.of() : List.of(text.split("\n"));
  }

  @Override
  public void close() {
    java.util.logging.Logger.getLogger("").removeHandler(julHandler);
    LoggerConfig root = context.getConfiguration().getRootLogger();
    root.removeAppender(appender.getName());
    root.setLevel(rootLevel);
    context.updateLoggers();
    appender.stop();
  }
}
