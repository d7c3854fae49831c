package io.okapigw.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every link between the README and the docs lands (issue 48: the docs are split by what a reader
 * wants, and a table that moves from one page to another must not leave a link behind): a link to a
 * file names one that exists, a link to {@code file.md#anchor} or {@code #anchor} names a heading
 * of that file, by GitHub's rules (lower case, punctuation dropped, blanks as {@code -}, a repeated
 * heading {@code -1}, {@code -2}, ...).
 */
class DocLinksTest {

  private static final Path ROOT = Path.of("..");
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]*)\\)");

  private static List<Path> pages() throws IOException {
    List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md")));
    try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
    }
    return pages;
  }

  /** GitHub's anchors of a markdown file's headings (outside fenced code). */
  static Set<String> anchors(Path file) throws IOException {
    Set<String> anchors = new LinkedHashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    boolean fenced = false;
    for (String line : Files.readAllLines(file)) {
      if (line.strip().startsWith("```")) {
        fenced = !fenced;
      }
      if (fenced || !line.matches("#{1,6} .*")) {
        continue;
      }
      String anchor =
          line.replaceFirst("^#+ ", "")
              .strip()
              .toLowerCase(Locale.ROOT)
              .replaceAll("[^\\p{L}\\p{N} _-]", "")
              .replace(' ', '-');
      int n = seen.merge(anchor, 1, Integer::sum);
      anchors.add(n == 1 ? anchor : anchor + "-" + (n - 1));
    }
    return anchors;
  }

  @Test
  void everyLink_namesAFileAndAHeadingThatExist() throws IOException {
    List<String> broken = new ArrayList<>();
    int checked = 0;
    for (Path page : pages()) {
      String text = Files.readString(page).replaceAll("(?s)```.*?```", "");
      Matcher m = LINK.matcher(text);
      while (m.find()) {
        String target = m.group(1);
        if (target.isEmpty() || target.matches("[a-z]+:.*")) {
          continue;
        }
        String file = target.replaceFirst("#.*", "");
        String anchor = target.contains("#") ? target.substring(target.indexOf('#') + 1) : null;
        Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
        checked++;
        if (!Files.exists(resolved)) {
          broken.add(page + ": " + target + ": no file " + resolved);
        } else if (anchor != null
            && resolved.toString().endsWith(".md")
            && !anchors(resolved).contains(anchor)) {
          broken.add(page + ": " + target + ": no heading #" + anchor + " in " + resolved);
        }
      }
    }
    assertThat(checked).as("links checked").isGreaterThan(100);
    assertThat(broken).as("links that land nowhere").isEmpty();
  }
}
