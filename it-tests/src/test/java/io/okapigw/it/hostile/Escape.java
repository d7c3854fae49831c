package io.okapigw.it.hostile;

import java.nio.charset.StandardCharsets;

/** Bytes as a Java string literal would spell them, so a failure shows exactly what was sent. */
final class Escape {

  private static final int MAX = 4_000;

  private Escape() {}

  /**
   * @return {@code bytes} escaped, long runs of one byte shortened ({@code \0 x 70000})
   */
  static String bytes(byte[] bytes) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < bytes.length && out.length() < MAX; ) {
      int run = 1;
      while (i + run < bytes.length && bytes[i + run] == bytes[i]) {
        run++;
      }
      if (run >= 16) {
        out.append('{').append(escape(bytes[i] & 0xff)).append(" x ").append(run).append('}');
        i += run;
      } else {
        out.append(escape(bytes[i] & 0xff));
        i++;
      }
    }
    if (out.length() >= MAX) {
      out.append("... (").append(bytes.length).append(" bytes in all)");
    }
    return out.toString();
  }

  static String text(String s) {
    return bytes(s.getBytes(StandardCharsets.ISO_8859_1));
  }

  private static String escape(int b) {
    return switch (b) {
      case '\r' -> "\\r";
      case '\n' -> "\\n";
      case '\t' -> "\\t";
      case '\\' -> "\\\\";
      case '"' -> "\\\"";
      default -> b >= 0x20 && b < 0x7f ? String.valueOf((char) b) : String.format("\\x%02x", b);
    };
  }
}
