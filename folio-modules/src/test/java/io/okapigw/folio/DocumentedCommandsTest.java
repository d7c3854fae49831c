package io.okapigw.folio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.okapigw.testsupport.DocumentedCommands;
import io.okapigw.testsupport.DocumentedCommands.Line;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every modules and register command line in the docs and scripts still works: its flags are known
 * to the command, and one written out in full reads by the settings' rules. (The compose file's are
 * the container tests' business.)
 */
class DocumentedCommandsTest {

  private static final List<Line> LINES =
      DocumentedCommands.inDocs(
          Pattern.compile("folio-modules-fat\\.jar\"?|\\$modules_jar\"?"),
          Path.of("../perf/bench"));

  @Test
  void documentedCommands_areFound() {
    assertThat(LINES).extracting(Line::command).contains("modules", "register");
    assertThat(LINES.stream().filter(Line::concrete)).hasSizeGreaterThan(2);
  }

  @Test
  void everyFlag_isASettingOfItsCommand() {
    for (Line line : LINES) {
      assertThat(Main.COMMANDS.spec(line.command()).keys())
          .as(line.toString())
          .containsAll(line.keys());
    }
  }

  @Test
  void everyConcreteLine_readsByTheRules() {
    for (Line line : LINES.stream().filter(Line::concrete).toList()) {
      assertThatCode(() -> Main.COMMANDS.spec(line.command()).read(line.args()))
          .as(line.toString())
          .doesNotThrowAnyException();
    }
  }
}
