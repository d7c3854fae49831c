package io.okapigw.core.http;

/**
 * Text from outside the gateway (a module's output or error answer, a request's path or header)
 * made fit for one line of the gateway's log: every control character is written as its Java escape
 * ({@code \u001b}), so that no one can forge log lines (CR, LF), drive the terminal that shows the
 * log (ESC sequences) or hide text (backspace, DEL). Used by every place that logs such text;
 * anything else is left as it is (no quoting of {@code \}, which a reader would not need).
 */
public final class LogText {

  private LogText() {}

  /**
   * @param text what to log; null for {@code null}
   * @return {@code text} with each character of C0 but tab, DEL, C1 and the Unicode line and
   *     paragraph separators (U+2028, U+2029) as {@code \}{@code uXXXX}
   */
  public static String escape(CharSequence text) {
    if (text == null) {
      return "null";
    }
    int first = firstEscaped(text);
    if (first < 0) {
      return text.toString();
    }
    StringBuilder out = new StringBuilder(text.length() + 16).append(text, 0, first);
    for (int i = first; i < text.length(); i++) {
      char c = text.charAt(i);
      if (escaped(c)) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  /**
   * @return the message of {@code failure} escaped (an exception's message often carries a module's
   *     answer)
   */
  public static String message(Throwable failure) {
    return escape(failure == null ? null : failure.getMessage());
  }

  private static int firstEscaped(CharSequence text) {
    for (int i = 0; i < text.length(); i++) {
      if (escaped(text.charAt(i))) {
        return i;
      }
    }
    return -1;
  }

  private static boolean escaped(char c) {
    return c < 0x20 && c != '\t' || c >= 0x7f && c <= 0x9f || c == '\u2028' || c == '\u2029';
  }
}
