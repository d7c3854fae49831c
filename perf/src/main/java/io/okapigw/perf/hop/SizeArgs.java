package io.okapigw.perf.hop;

/** Body sizes as the tables write them: {@code 230B}, {@code 16KB}, {@code 16MB} (binary). */
final class SizeArgs {

  private static final long KB = 1024;
  private static final long MB = KB * KB;

  private SizeArgs() {}

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
