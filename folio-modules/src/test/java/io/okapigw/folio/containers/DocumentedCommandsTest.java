package io.okapigw.folio.containers;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.testsupport.DocumentedCommands;
import io.okapigw.testsupport.DocumentedCommands.Line;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every modules and register command line in the docs and scripts still works: its flags are
 * settings of its command, and one written out in full reads by the settings' rules. (The compose
 * file's are the container tests' business.)
 */
class DocumentedCommandsTest {

  @Test
  void documentedCommands_found_andWork() {
    List<Line> lines =
        DocumentedCommands.inDocs(
            Pattern.compile("folio-modules-fat\\.jar\"?|\\$modules_jar\"?"),
            Path.of("../perf/bench"));
    assertThat(lines).extracting(Line::command).contains("modules", "register");
    assertThat(lines.stream().filter(Line::concrete)).hasSizeGreaterThan(2);
    assertThat(DocumentedCommands.problems(lines, Main.COMMANDS)).isEmpty();
  }

  @Test
  void architectureDoc_namesEveryCommand() {
    String programs = DocumentedCommands.architecturePrograms("folio-modules");
    for (String command : Main.COMMANDS.names()) {
      assertThat(programs)
          .as("docs/architecture.md, row folio-modules")
          .contains("`" + command + "`");
    }
  }
}
