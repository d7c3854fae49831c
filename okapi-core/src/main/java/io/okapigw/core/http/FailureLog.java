package io.okapigw.core.http;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongSupplier;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.event.Level;

/**
 * Logs failed requests one line each, and at most {@code lines} lines per kind of failure per
 * interval, so that a burst of them (anyone can send a thousand bad requests a second, or call
 * through an auth module that is down) cannot fill a disk. What is not logged is counted; the count
 * is logged as one line ({@code ... 80 more upstream failures not logged}) before the next line of
 * that kind once the interval is over.
 *
 * <p>Lines carry no stack trace, except the first {@link Kind#INTERNAL} failure (a bug) of each
 * interval. Every line is cut to {@value #MAX_LINE} characters, then its control characters escaped
 * ({@link LogText}: no forged log lines) and anything shaped like a JWT becomes {@code <token>}.
 * Thread-safe.
 */
public final class FailureLog {

  /** Default lines per kind and interval. */
  public static final int DEFAULT_LINES = 20;

  /** Default interval. */
  public static final Duration DEFAULT_INTERVAL = Duration.ofMinutes(1);

  /** Longest line logged, in characters. */
  public static final int MAX_LINE = 500;

  private static final Pattern JWT =
      Pattern.compile("eyJ[A-Za-z0-9_-]{2,}\\.[A-Za-z0-9_-]*(\\.[A-Za-z0-9_-]*)?");

  /** What caused a failure, which decides its level and whose lines it counts against. */
  public enum Kind {
    /** The client sent something wrong: 4xx. */
    CLIENT("client", Level.INFO),
    /** A module was unreachable, slow or broke its answer: 5xx. */
    UPSTREAM("upstream", Level.WARN),
    /** A connection closed before the answer was complete; nothing more can be answered. */
    BROKEN("broken connection", Level.INFO),
    /** A bug of the gateway: 500. */
    INTERNAL("internal", Level.ERROR);

    private final String label;
    private final Level level;

    Kind(String label, Level level) {
      this.label = label;
      this.level = level;
    }
  }

  private final Logger logger;
  private final int lines;
  private final long intervalNanos;
  private final LongSupplier nanoTime;
  private final Map<Kind, Window> windows = new EnumMap<>(Kind.class);

  private FailureLog(Logger logger, int lines, Duration interval, LongSupplier nanoTime) {
    this.logger = logger;
    this.lines = lines;
    this.intervalNanos = interval.toNanos();
    this.nanoTime = nanoTime;
    for (Kind kind : Kind.values()) {
      windows.put(kind, new Window(nanoTime.getAsLong()));
    }
  }

  /**
   * @param logger where lines go
   * @param lines lines per kind and interval, at least 1
   * @param interval the interval, positive
   * @param nanoTime the clock ({@code System::nanoTime}; tests pass a fake one)
   * @throws IllegalArgumentException if {@code lines} or {@code interval} is not positive
   */
  public static FailureLog create(
      Logger logger, int lines, Duration interval, LongSupplier nanoTime) {
    if (lines < 1) {
      throw new IllegalArgumentException("lines must be at least 1, was " + lines);
    }
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("interval must be positive, was " + interval);
    }
    return new FailureLog(
        Objects.requireNonNull(logger, "logger"),
        lines,
        interval,
        Objects.requireNonNull(nanoTime, "nanoTime"));
  }

  /** Logs {@code line} at the kind's level, unless the kind has used its lines. */
  public void log(Kind kind, String line) {
    log(kind, line, null);
  }

  /**
   * Logs {@code line} at the kind's level, unless the kind has used its lines; with the stack trace
   * of {@code failure} only for the first {@link Kind#INTERNAL} line of an interval.
   */
  public void log(Kind kind, String line, Throwable failure) {
    Window window = windows.get(kind);
    long suppressedBefore;
    boolean first;
    synchronized (window) {
      long now = nanoTime.getAsLong();
      suppressedBefore = 0;
      if (now - window.start >= intervalNanos) {
        suppressedBefore = window.suppressed;
        window.start = now;
        window.logged = 0;
        window.suppressed = 0;
      }
      if (window.logged >= lines) {
        window.suppressed++;
        return;
      }
      first = window.logged++ == 0;
    }
    if (suppressedBefore > 0) {
      logger
          .atLevel(kind.level)
          .log(
              "... {} more {} failures not logged (at most {} lines per {} s)",
              suppressedBefore,
              kind.label,
              lines,
              intervalNanos / 1_000_000_000L);
    }
    String text = clean(line);
    if (failure != null && kind == Kind.INTERNAL && first) {
      logger.atLevel(kind.level).setCause(failure).log(text);
    } else {
      logger.atLevel(kind.level).log(text);
    }
  }

  /**
   * @return {@code text} cut, without control characters and with JWTs masked
   */
  static String clean(String text) {
    String masked = JWT.matcher(text == null ? "" : text).replaceAll("<token>");
    boolean cut = masked.length() > MAX_LINE;
    String escaped = LogText.escape(cut ? masked.substring(0, MAX_LINE) : masked);
    return cut ? escaped + "..." : escaped;
  }

  private static final class Window {
    long start;
    int logged;
    long suppressed;

    Window(long start) {
      this.start = start;
    }
  }
}
