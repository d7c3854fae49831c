package io.okapigw.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.okapigw.perf.load.LoadOptions;
import io.okapigw.testsupport.DocumentedCommands;
import io.okapigw.testsupport.DocumentedCommands.Line;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every perf command line in the docs and scripts still works: its flags are settings of its
 * command, and one written out in full reads by the settings' rules (checkout-checkin's
 * combinations too).
 */
class DocumentedCommandsTest {

  private static final List<Line> LINES =
      DocumentedCommands.inDocs(
          Pattern.compile("perf-fat\\.jar\"?|\\$perf_jar\"?|\\$PERF_JAR\"?|\\./gateway perf"),
          Path.of("bench"),
          Path.of("scripts"));

  @Test
  void documentedCommands_found_andWork() {
    assertThat(LINES).extracting(Line::command).contains("checkout-checkin", "fullfake");
    assertThat(LINES.stream().filter(Line::concrete)).hasSizeGreaterThan(10);
    assertThat(DocumentedCommands.problems(LINES, Main.COMMANDS)).isEmpty();
  }

  @Test
  void loadDriverLines_areValidCombinations() {
    for (Line line : LINES) {
      if (line.concrete() && line.command().equals("checkout-checkin")) {
        assertThatCode(() -> LoadOptions.from(LoadOptions.SPEC.read(line.args())))
            .as(line.toString())
            .doesNotThrowAnyException();
      }
    }
  }

  @Test
  void architectureDoc_namesEveryCommand() {
    String programs = DocumentedCommands.architecturePrograms("perf");
    for (String command : Main.COMMANDS.names()) {
      assertThat(programs).as("docs/architecture.md, row perf").contains("`" + command + "`");
    }
  }
}
