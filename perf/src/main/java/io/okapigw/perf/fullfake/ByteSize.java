package io.okapigw.perf.fullfake;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Body sizes as the command line writes them: {@code 512}, {@code 1KB}, {@code 16MB}, {@code 1GB};
 * units are binary (1KB = 1024 bytes).
 */
public final class ByteSize {

  public static final long KB = 1024;
  public static final long MB = 1024 * KB;
  public static final long GB = 1024 * MB;

  private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*(B|KB|KIB|K|MB|MIB|M|GB|GIB|G)?");

  private ByteSize() {}

  /**
   * @param key the setting being read, named in the error
   * @param value e.g. {@code 256KB}
   * @return the size in bytes
   * @throws IllegalArgumentException naming {@code key} if the value is not a size
   */
  public static long parse(String key, String value) {
    Matcher m = SIZE.matcher(value.trim().toUpperCase(Locale.ROOT));
    if (!m.matches()) {
      throw new IllegalArgumentException(
          key + " must be sizes like 1KB, 16KB, 1MB or 256MB, was '" + value + "'");
    }
    long n = Long.parseLong(m.group(1));
    String unit = m.group(2) == null ? "B" : m.group(2);
    return n
        * switch (unit.charAt(0)) {
          case 'K' -> KB;
          case 'M' -> MB;
          case 'G' -> GB;
          default -> 1;
        };
  }

  /**
   * @return {@code bytes} in the largest binary unit that divides it, e.g. {@code 16MB}
   */
  public static String format(long bytes) {
    if (bytes >= GB && bytes % GB == 0) {
      return bytes / GB + "GB";
    }
    if (bytes >= MB && bytes % MB == 0) {
      return bytes / MB + "MB";
    }
    if (bytes >= KB && bytes % KB == 0) {
      return bytes / KB + "KB";
    }
    return bytes + "B";
  }
}
