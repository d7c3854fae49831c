package io.okapigw.perf.hop;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Body sizes as the command line writes them: {@code 230B}, {@code 16KB}, {@code 16MB} (binary).
 */
final class SizeArgs {

  private static final long KB = 1024;
  private static final long MB = KB * KB;
  private static final Pattern SIZE = Pattern.compile("(\\d+)(B|KB|MB)?");

  private SizeArgs() {}

  /**
   * @param key the setting, named in the error
   * @param list comma-separated sizes
   * @throws IllegalArgumentException naming {@code key} for a value that is not a size
   */
  static List<Long> parse(String key, String list) {
    return List.of(list.split(",")).stream().map(s -> parseOne(key, s)).toList();
  }

  private static long parseOne(String key, String value) {
    Matcher m = SIZE.matcher(value.trim().toUpperCase(Locale.ROOT));
    if (!m.matches()) {
      throw new IllegalArgumentException(
          key + " must be sizes like 230B, 16KB, 16MB, was '" + value + "'");
    }
    long unit =
        m.group(2) == null || m.group(2).equals("B") ? 1 : m.group(2).equals("KB") ? KB : MB;
    return Long.parseLong(m.group(1)) * unit;
  }

  /**
   * @return {@code bytes} in the largest unit that divides it: {@code 16MB}, {@code 230B}
   */
  static String format(long bytes) {
    if (bytes >= MB && bytes % MB == 0) {
      return bytes / MB + "MB";
    }
    if (bytes >= KB && bytes % KB == 0) {
      return bytes / KB + "KB";
    }
    return bytes + "B";
  }
}
