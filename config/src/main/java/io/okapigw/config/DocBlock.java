package io.okapigw.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A generated block of a markdown file, between {@code <!-- NAME begin -->} and {@code <!-- NAME
 * end -->} lines: how a settings table ({@link SettingsSpec#markdown()}) sits in the docs. A test
 * of each program compares the block with the generated table, and rewrites it when asked.
 */
public final class DocBlock {

  private DocBlock() {}

  /**
   * @return the text between the markers (each line with its newline)
   * @throws IllegalArgumentException if the file lacks the markers
   */
  public static String read(Path doc, String name) throws IOException {
    String text = Files.readString(doc);
    int[] bounds = bounds(text, doc, name);
    return text.substring(bounds[0], bounds[1]);
  }

  /**
   * Replaces the text between the markers with {@code content}.
   *
   * @throws IllegalArgumentException if the file lacks the markers
   */
  public static void write(Path doc, String name, String content) throws IOException {
    String text = Files.readString(doc);
    int[] bounds = bounds(text, doc, name);
    Files.writeString(doc, text.substring(0, bounds[0]) + content + text.substring(bounds[1]));
  }

  /**
   * What a docs test compares with {@code generated}: the block as it is, after writing {@code
   * generated} into it if the system property {@code settings.write} is {@code true} (how a
   * developer regenerates the docs: {@code mvn -o -q -pl MODULE -am test
   * -Dtest=SettingsDocumentedTest -Dsurefire.failIfNoSpecifiedTests=false -Dsettings.write=true}).
   *
   * @throws IllegalArgumentException if the file lacks the markers
   */
  public static String sync(Path doc, String name, String generated) throws IOException {
    if (Boolean.getBoolean("settings.write")) {
      write(doc, name, generated);
    }
    return read(doc, name);
  }

  private static int[] bounds(String text, Path doc, String name) {
    String begin = "<!-- " + name + " begin -->\n";
    String end = "<!-- " + name + " end -->";
    int from = text.indexOf(begin);
    int to = text.indexOf(end, Math.max(from, 0));
    if (from < 0 || to < 0) {
      throw new IllegalArgumentException(
          doc + " lacks the lines '" + begin.trim() + "' and '" + end + "'");
    }
    return new int[] {from + begin.length(), to};
  }
}
