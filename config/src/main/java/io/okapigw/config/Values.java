package io.okapigw.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one set of rules by which setting texts are read, for every program of ours. Case and blanks
 * around the value do not matter.
 *
 * <ul>
 *   <li>Duration: a whole number and a unit, {@code ms}, {@code s}, {@code m}, {@code h} or {@code
 *       d} ({@code 500ms}, {@code 30s}, {@code 3m}, {@code 1h}, {@code 1d}); {@code 0} alone needs
 *       none. A bare number is refused: {@code 300} could mean seconds or milliseconds.
 *   <li>Size: a whole number of bytes ({@code 512}), or with a unit {@code KB}, {@code MB}, {@code
 *       GB}, also written {@code KiB}, {@code MiB}, {@code GiB}, all binary: 1KB = 1KiB = 1024
 *       bytes.
 *   <li>Boolean: {@code true}, {@code yes}, {@code on}; {@code false}, {@code no}, {@code off}.
 *   <li>Integer: a whole number, optionally signed.
 *   <li>List: values of one kind separated by commas ({@code 1,8,32}, {@code 1KB,16MB}), each read
 *       by its kind's rule.
 * </ul>
 *
 * Each reader returns null for a text that does not follow its rule; {@link Setting} turns that
 * into an error naming the setting.
 */
final class Values {

  static final String DURATION_RULE =
      "a duration: a whole number and a unit ms, s, m, h or d, such as 500ms, 30s, 3m, 1h, 1d"
          + " (0 needs no unit)";
  static final String SIZE_RULE =
      "a size: a whole number of bytes, or with a unit KB, MB or GB (1KB = 1KiB = 1024 bytes),"
          + " such as 512, 64KB, 1MB";
  static final String BOOLEAN_RULE = "true or false (also yes/no, on/off)";
  static final String INTEGER_RULE = "a whole number";
  static final String INTEGERS_RULE = "whole numbers separated by commas, such as 1,8,32";
  static final String SIZES_RULE =
      "sizes separated by commas, such as 1KB,16MB; a size is a whole number of bytes, or with a"
          + " unit KB, MB or GB (1KB = 1KiB = 1024 bytes)";

  private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)");
  private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*(b|kb|kib|mb|mib|gb|gib)?");

  private Values() {}

  static Duration duration(String text) {
    String s = normal(text);
    if (s.equals("0")) {
      return Duration.ZERO;
    }
    Matcher m = DURATION.matcher(s);
    if (!m.matches()) {
      return null;
    }
    try {
      long n = Long.parseLong(m.group(1));
      return switch (m.group(2)) {
        case "ms" -> Duration.ofMillis(n);
        case "s" -> Duration.ofSeconds(n);
        case "m" -> Duration.ofMinutes(n);
        case "h" -> Duration.ofHours(n);
        default -> Duration.ofDays(n);
      };
    } catch (ArithmeticException | NumberFormatException e) {
      return null;
    }
  }

  /** Formats in the largest unit that is exact: {@code 3m}, {@code 500ms}, {@code 0}. */
  static String format(Duration d) {
    if (d.isZero()) {
      return "0";
    }
    if (d.toNanosPart() % 1_000_000 != 0) {
      return d.toString();
    }
    long ms = d.toMillis();
    long[] sizes = {86_400_000L, 3_600_000L, 60_000L, 1000L};
    String[] units = {"d", "h", "m", "s"};
    for (int i = 0; i < sizes.length; i++) {
      if (ms % sizes[i] == 0) {
        return ms / sizes[i] + units[i];
      }
    }
    return ms + "ms";
  }

  static Long size(String text) {
    Matcher m = SIZE.matcher(normal(text));
    if (!m.matches()) {
      return null;
    }
    String unit = m.group(2) == null ? "b" : m.group(2);
    long factor =
        switch (unit.charAt(0)) {
          case 'k' -> Sizes.KB;
          case 'm' -> Sizes.MB;
          case 'g' -> Sizes.GB;
          default -> 1;
        };
    try {
      return Math.multiplyExact(Long.parseLong(m.group(1)), factor);
    } catch (ArithmeticException | NumberFormatException e) {
      return null;
    }
  }

  private static final ObjectMapper JSON_READER = new ObjectMapper();

  /** JSON: any JSON value; its text as given. */
  static String json(String text) {
    try {
      return JSON_READER.readTree(text).isMissingNode() ? null : text.strip();
    } catch (JsonProcessingException e) {
      return null;
    }
  }

  static Boolean bool(String text) {
    return switch (normal(text)) {
      case "true", "yes", "on" -> true;
      case "false", "no", "off" -> false;
      default -> null;
    };
  }

  static Integer integer(String text) {
    try {
      return Integer.valueOf(normal(text));
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static String normal(String text) {
    return text.trim().toLowerCase(Locale.ROOT);
  }
}
