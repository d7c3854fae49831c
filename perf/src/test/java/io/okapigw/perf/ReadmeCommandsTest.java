package io.okapigw.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Every shell line of README.md runs as written on a fresh clone (issue 48): it starts with a
 * program a clone has ({@code ./gateway} with one of its commands, {@code mvn} on modules and
 * profiles that exist, {@code bash} on a script that exists), never with a jar under {@code
 * target/} that nothing built yet. The flags of each program's lines are checked against its
 * settings by the DocumentedCommandsTest of its module ({@code ./gateway perf} here).
 */
class ReadmeCommandsTest {

  private static final Path ROOT = Path.of("..");

  /** The README's code: lines of fenced blocks and lines indented by four spaces. */
  private static List<String> readmeCode() throws IOException {
    List<String> code = new ArrayList<>();
    boolean fenced = false;
    String pending = "";
    for (String line : Files.readAllLines(ROOT.resolve("README.md"))) {
      if (line.strip().startsWith("```")) {
        fenced = !fenced;
        continue;
      }
      if (!fenced && !line.startsWith("    ")) {
        continue;
      }
      String text = pending + line.strip();
      if (text.endsWith("\\")) {
        pending = text.substring(0, text.length() - 1) + " ";
        continue;
      }
      pending = "";
      if (!text.isEmpty() && !text.startsWith("#")) {
        code.add(text);
      }
    }
    return code;
  }

  /** The commands the gateway script's {@code case} knows. */
  private static Set<String> gatewayCommands() throws IOException {
    Matcher m =
        Pattern.compile("(?m)^  ([a-z|-]+)\\)$").matcher(Files.readString(ROOT.resolve("gateway")));
    Set<String> commands = new java.util.TreeSet<>();
    while (m.find()) {
      commands.addAll(List.of(m.group(1).split("\\|")));
    }
    return commands;
  }

  @Test
  void everyLine_startsWithAProgramAFreshCloneHas() throws IOException {
    List<String> code = readmeCode();
    assertThat(code).as("README code lines").hasSizeGreaterThan(4);
    Set<String> gateway = gatewayCommands();
    assertThat(gateway).contains("demo", "perf", "dev");
    for (String line : code) {
      List<String> words = List.of(line.split("\\s+"));
      switch (words.get(0)) {
        case "./gateway" -> assertThat(gateway).as(line).contains(words.get(1));
        case "bash" -> assertThat(ROOT.resolve(words.get(1))).as(line).isRegularFile();
        case "mvn" -> checkMaven(line, words);
        default ->
            throw new AssertionError(
                "README line starts with "
                    + words.get(0)
                    + " (./gateway, mvn or bash: a fresh clone has no jar to run): "
                    + line);
      }
    }
  }

  private static void checkMaven(String line, List<String> words) throws IOException {
    for (int i = 0; i + 1 < words.size(); i++) {
      if (words.get(i).equals("-pl")) {
        for (String module : words.get(i + 1).split(",")) {
          assertThat(ROOT.resolve(module).resolve("pom.xml")).as(line).isRegularFile();
          String pom = Files.readString(ROOT.resolve(module).resolve("pom.xml"));
          for (String word : words) {
            if (word.startsWith("-P")) {
              assertThat(pom).as(line + ": profile").contains("<id>" + word.substring(2) + "</id>");
            }
          }
        }
      }
    }
  }

  @Test
  void readme_isShort_andLinksEveryDocItNames() throws IOException {
    List<String> lines = Files.readAllLines(ROOT.resolve("README.md"));
    assertThat(lines).as("README lines").hasSizeLessThan(100);
    Matcher link = Pattern.compile("\\]\\(([^)#]+)(#[^)]*)?\\)").matcher(String.join("\n", lines));
    Set<String> missing =
        link.results()
            .map(r -> r.group(1))
            .filter(target -> !target.startsWith("http"))
            .filter(target -> !Files.exists(ROOT.resolve(target)))
            .collect(Collectors.toSet());
    assertThat(missing).as("README links to files that do not exist").isEmpty();
    Matcher anchored =
        Pattern.compile("\\]\\(([^)#]+\\.md)#([^)]*)\\)").matcher(String.join("\n", lines));
    while (anchored.find()) {
      assertThat(anchors(ROOT.resolve(anchored.group(1))))
          .as("README link " + anchored.group())
          .contains(anchored.group(2));
    }
  }

  /** GitHub's anchors of a markdown file's headings. */
  private static Set<String> anchors(Path file) throws IOException {
    return Files.readAllLines(file).stream()
        .filter(l -> l.matches("#{1,6} .*"))
        .map(l -> l.replaceFirst("^#+ ", "").strip().toLowerCase(java.util.Locale.ROOT))
        .map(h -> h.replaceAll("[^a-z0-9 _-]", "").replace(' ', '-'))
        .collect(Collectors.toSet());
  }
}
