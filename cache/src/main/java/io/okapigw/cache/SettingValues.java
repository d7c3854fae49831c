package io.okapigw.cache;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Converts raw setting values (strings from flags, numbers and booleans from JSON) into typed
 * values, and durations back into short strings. Every error names the setting key.
 */
final class SettingValues {

  private static final Pattern DURATION =
      Pattern.compile("(-?\\d+(?:\\.\\d+)?)\\s*(ns|ms|s|m|h|d)?");

  /** Units from largest to smallest, with their length in nanoseconds. */
  private static final String[] UNITS = {"d", "h", "m", "s", "ms", "ns"};

  private static final long[] UNIT_NANOS = {
    86_400_000_000_000L, 3_600_000_000_000L, 60_000_000_000L, 1_000_000_000L, 1_000_000L, 1L
  };
  private static final BigDecimal NANOS_PER_SECOND = BigDecimal.valueOf(1_000_000_000L);

  private SettingValues() {}

  static boolean toBoolean(String key, Object value) {
    if (value instanceof Boolean b) {
      return b;
    }
    String s = requireValue(key, value).toString().trim();
    if (s.equalsIgnoreCase("true") || s.equalsIgnoreCase("false")) {
      return Boolean.parseBoolean(s);
    }
    throw new IllegalArgumentException(key + " must be true or false, was '" + value + "'");
  }

  static long toLong(String key, Object value) {
    try {
      return new BigDecimal(requireValue(key, value).toString().trim()).longValueExact();
    } catch (NumberFormatException | ArithmeticException e) {
      throw new IllegalArgumentException(key + " must be an integer, was '" + value + "'", e);
    }
  }

  static Duration toDuration(String key, Object value) {
    if (value instanceof Duration d) {
      return d;
    }
    if (value instanceof Number n) {
      return ofSeconds(key, value, decimal(key, n));
    }
    String s = requireValue(key, value).toString().trim().toLowerCase(Locale.ROOT);
    if (s.startsWith("p") || s.startsWith("-p")) {
      return parseIso(key, value, s);
    }
    Matcher m = DURATION.matcher(s);
    if (!m.matches()) {
      throw badDuration(key, value, null);
    }
    BigDecimal amount = new BigDecimal(m.group(1));
    String unit = m.group(2) == null ? "s" : m.group(2);
    BigDecimal nanos = amount.multiply(BigDecimal.valueOf(UNIT_NANOS[indexOf(unit)]));
    return ofSeconds(key, value, nanos.divide(NANOS_PER_SECOND));
  }

  /** Formats in the largest unit that represents the duration exactly: 3m, 500ms, -1s. */
  static String format(Duration duration) {
    BigInteger nanos =
        BigInteger.valueOf(duration.getSeconds())
            .multiply(BigInteger.valueOf(1_000_000_000L))
            .add(BigInteger.valueOf(duration.getNano()));
    if (nanos.signum() == 0) {
      return "0s";
    }
    for (int i = 0; i < UNITS.length; i++) {
      BigInteger[] qr = nanos.divideAndRemainder(BigInteger.valueOf(UNIT_NANOS[i]));
      if (qr[1].signum() == 0) {
        return qr[0] + UNITS[i];
      }
    }
    throw new AssertionError("ns divides every duration");
  }

  private static Object requireValue(String key, Object value) {
    if (value == null) {
      throw new IllegalArgumentException(key + " must not be null");
    }
    return value;
  }

  private static BigDecimal decimal(String key, Number n) {
    try {
      return new BigDecimal(n.toString());
    } catch (NumberFormatException e) { // NaN, Infinity
      throw badDuration(key, n, e);
    }
  }

  private static Duration ofSeconds(String key, Object raw, BigDecimal seconds) {
    try {
      BigDecimal whole = seconds.setScale(0, RoundingMode.FLOOR);
      long nanos = seconds.subtract(whole).multiply(NANOS_PER_SECOND).longValue();
      return Duration.ofSeconds(whole.longValueExact(), nanos);
    } catch (ArithmeticException e) {
      throw badDuration(key, raw, e);
    }
  }

  private static Duration parseIso(String key, Object raw, String s) {
    try {
      return Duration.parse(s.toUpperCase(Locale.ROOT));
    } catch (DateTimeParseException e) {
      throw badDuration(key, raw, e);
    }
  }

  private static int indexOf(String unit) {
    for (int i = 0; i < UNITS.length; i++) {
      if (UNITS[i].equals(unit)) {
        return i;
      }
    }
    throw new IllegalArgumentException("unknown unit " + unit);
  }

  private static IllegalArgumentException badDuration(String key, Object value, Exception cause) {
    return new IllegalArgumentException(
        key
            + " must be a duration such as 180s, 3m or 500ms"
            + " (a bare number is seconds), was '"
            + value
            + "'",
        cause);
  }
}
