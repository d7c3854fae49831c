package io.okapigw.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.testsupport.DocumentedCommands;
import io.okapigw.testsupport.DocumentedCommands.Line;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every dev and cluster command line in the docs, the gateway script and the benchmark scripts
 * still works: its flags are gateway settings, and one written out in full reads by the rules.
 */
class DocumentedCommandsTest {

  @Test
  void documentedCommands_found_andWork() {
    List<Line> lines =
        DocumentedCommands.inDocs(
                Pattern.compile("okapi-core-fat\\.jar\"?|\\./gateway"),
                Path.of("../gateway"),
                Path.of("../perf/bench"))
            .stream()
            .filter(line -> List.of("dev", "cluster").contains(line.command()))
            .toList();
    assertThat(lines).extracting(Line::command).contains("dev", "cluster");
    assertThat(lines.stream().filter(Line::concrete)).hasSizeGreaterThan(3);
    assertThat(DocumentedCommands.problems(lines, Main.COMMANDS)).isEmpty();
  }

  @Test
  void architectureDoc_namesEveryCommand() {
    String programs = DocumentedCommands.architecturePrograms("okapi-core");
    for (String command : Main.COMMANDS.names()) {
      assertThat(programs).as("docs/architecture.md, row okapi-core").contains("`" + command + "`");
    }
  }
}
