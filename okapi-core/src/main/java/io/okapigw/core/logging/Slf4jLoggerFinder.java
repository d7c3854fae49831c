package io.okapigw.core.logging;

import java.text.MessageFormat;
import java.util.MissingResourceException;
import java.util.ResourceBundle;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes {@code System.Logger} to SLF4J (Log4j 2 here) for libraries on the class path. Without it
 * the JDK sends {@code System.Logger} to {@code java.util.logging}, which prints to stderr whatever
 * {@code log4j2.xml} says: Caffeine logged every failed auth call that way, a hundred lines of
 * stack trace each ({@code LocalAsyncCache - Exception thrown during asynchronous load}), though
 * {@code log4j2.xml} turns its logger down to ERROR. The JDK's own modules keep {@code
 * java.util.logging}, as without this class: they may log while Log4j itself starts, and they never
 * flood.
 *
 * <p>Registered in {@code META-INF/services/java.lang.System$LoggerFinder}; the JDK loads it at the
 * first {@code System.getLogger}.
 */
public final class Slf4jLoggerFinder extends System.LoggerFinder {

  @Override
  public System.Logger getLogger(String name, Module module) {
    if (isJdk(module)) {
      return new JulLogger(java.util.logging.Logger.getLogger(name));
    }
    return new Slf4jLogger(name);
  }

  private static boolean isJdk(Module module) {
    ClassLoader loader = module.getClassLoader();
    return module.isNamed()
        && module.getLayer() == ModuleLayer.boot()
        && (loader == null || loader == ClassLoader.getPlatformClassLoader());
  }

  private static String format(ResourceBundle bundle, String format, Object... params) {
    String text = localized(bundle, format);
    return params == null || params.length == 0 ? text : MessageFormat.format(text, params);
  }

  private static String localized(ResourceBundle bundle, String key) {
    if (bundle == null || key == null) {
      return key;
    }
    try {
      return bundle.getString(key);
    } catch (MissingResourceException e) {
      return key;
    }
  }

  /** A library's logger, resolved on first use. */
  private static final class Slf4jLogger implements System.Logger {

    private final String name;
    private volatile Logger logger;

    Slf4jLogger(String name) {
      this.name = name;
    }

    @Override
    public String getName() {
      return name;
    }

    @Override
    public boolean isLoggable(System.Logger.Level level) {
      org.slf4j.event.Level to = level(level);
      return to != null && logger().isEnabledForLevel(to);
    }

    @Override
    public void log(
        System.Logger.Level level, ResourceBundle bundle, String msg, Throwable thrown) {
      if (isLoggable(level)) {
        logger().atLevel(level(level)).setCause(thrown).log(localized(bundle, msg));
      }
    }

    @Override
    public void log(
        System.Logger.Level level, ResourceBundle bundle, String format, Object... params) {
      if (isLoggable(level)) {
        logger().atLevel(level(level)).log(format(bundle, format, params));
      }
    }

    private Logger logger() {
      Logger l = logger;
      if (l == null) {
        l = LoggerFactory.getLogger(name);
        logger = l;
      }
      return l;
    }

    private static org.slf4j.event.Level level(System.Logger.Level level) {
      return switch (level) {
        case ALL, TRACE -> org.slf4j.event.Level.TRACE;
        case DEBUG -> org.slf4j.event.Level.DEBUG;
        case INFO -> org.slf4j.event.Level.INFO;
        case WARNING -> org.slf4j.event.Level.WARN;
        case ERROR -> org.slf4j.event.Level.ERROR;
        case OFF -> null;
      };
    }
  }

  /** A JDK module's logger on {@code java.util.logging}, as the JDK's default finder does. */
  private static final class JulLogger implements System.Logger {

    private final java.util.logging.Logger logger;

    JulLogger(java.util.logging.Logger logger) {
      this.logger = logger;
    }

    @Override
    public String getName() {
      return logger.getName();
    }

    @Override
    public boolean isLoggable(System.Logger.Level level) {
      return logger.isLoggable(level(level));
    }

    @Override
    public void log(
        System.Logger.Level level, ResourceBundle bundle, String msg, Throwable thrown) {
      publish(level, () -> localized(bundle, msg), thrown);
    }

    @Override
    public void log(
        System.Logger.Level level, ResourceBundle bundle, String format, Object... params) {
      publish(level, () -> format(bundle, format, params), null);
    }

    private void publish(System.Logger.Level level, Supplier<String> message, Throwable thrown) {
      java.util.logging.Level to = level(level);
      if (logger.isLoggable(to)) {
        logger.log(to, message.get(), thrown);
      }
    }

    private static java.util.logging.Level level(System.Logger.Level level) {
      return switch (level) {
        case ALL -> java.util.logging.Level.ALL;
        case TRACE -> java.util.logging.Level.FINER;
        case DEBUG -> java.util.logging.Level.FINE;
        case INFO -> java.util.logging.Level.INFO;
        case WARNING -> java.util.logging.Level.WARNING;
        case ERROR -> java.util.logging.Level.SEVERE;
        case OFF -> java.util.logging.Level.OFF;
      };
    }
  }
}
