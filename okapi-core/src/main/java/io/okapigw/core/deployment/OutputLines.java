package io.okapigw.core.deployment;

import io.okapigw.core.http.LogText;
import java.io.IOException;
import java.io.Reader;
import java.util.function.Consumer;

/**
 * A module's output cut into the lines the gateway logs: at {@code \n} only (a {@code \r} right
 * before it dropped, any other one kept), at most {@link #MAX_LINE} characters a line (a longer one
 * is logged in pieces, so a module writing without newlines cannot grow the gateway's memory), each
 * line {@linkplain LogText#escape escaped}.
 */
final class OutputLines {

  /** The longest line logged at once, in characters. */
  static final int MAX_LINE = 16 * 1024;

  private OutputLines() {}

  /** Reads {@code output} to its end, each line to {@code lines}. */
  static void read(Reader output, Consumer<String> lines) throws IOException {
    StringBuilder line = new StringBuilder();
    char[] chunk = new char[4096];
    int n;
    while ((n = output.read(chunk)) >= 0) {
      for (int i = 0; i < n; i++) {
        char c = chunk[i];
        if (c == '\n') {
          emit(line, true, lines);
        } else {
          line.append(c);
          if (line.length() >= MAX_LINE) {
            emit(line, false, lines);
          }
        }
      }
    }
    if (!line.isEmpty()) {
      emit(line, false, lines);
    }
  }

  private static void emit(StringBuilder line, boolean ended, Consumer<String> lines) {
    int length = line.length();
    if (ended && length > 0 && line.charAt(length - 1) == '\r') {
      length--;
    }
    lines.accept(LogText.escape(line.subSequence(0, length)));
    line.setLength(0);
  }
}
