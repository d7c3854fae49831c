package io.okapigw.config;

/**
 * Sizes in bytes as every program of ours writes them: binary units, {@code 1KB = 1KiB = 1024}
 * bytes, the form a size setting reads ({@link Setting#size}).
 */
public final class Sizes {

  /** 1024 bytes. */
  public static final long KB = 1024;

  /** 1024 KB. */
  public static final long MB = 1024 * KB;

  /** 1024 MB. */
  public static final long GB = 1024 * MB;

  private Sizes() {}

  /**
   * @return {@code bytes} in the largest unit that is exact: {@code 16KB}, {@code 1GB}, {@code 100}
   *     (bytes)
   */
  public static String format(long bytes) {
    if (bytes != 0 && bytes % GB == 0) {
      return bytes / GB + "GB";
    }
    if (bytes != 0 && bytes % MB == 0) {
      return bytes / MB + "MB";
    }
    if (bytes != 0 && bytes % KB == 0) {
      return bytes / KB + "KB";
    }
    return Long.toString(bytes);
  }
}
