package io.okapigw.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.okapigw.config.Settings;
import io.okapigw.perf.load.LoadOptions;
import io.okapigw.testsupport.DocumentedCommands;
import io.okapigw.testsupport.DocumentedCommands.Line;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every perf command line in the docs and scripts still works: its flags are known to the command,
 * and one written out in full reads by the settings' rules (checkout-checkin's combinations too).
 */
class DocumentedCommandsTest {

  private static final List<Line> LINES =
      DocumentedCommands.inDocs(
          Pattern.compile("perf-fat\\.jar\"?|\\$perf_jar\"?|\\$PERF_JAR\"?"),
          Path.of("bench"),
          Path.of("scripts"));

  @Test
  void documentedCommands_areFound() {
    assertThat(LINES).extracting(Line::command).contains("checkout-checkin", "fullfake");
    assertThat(LINES.stream().filter(Line::concrete)).hasSizeGreaterThan(10);
  }

  @Test
  void everyFlag_isASettingOfItsCommand() {
    for (Line line : LINES) {
      assertThat(Main.COMMANDS.names()).as(line.toString()).contains(line.command());
      assertThat(Main.COMMANDS.spec(line.command()).keys())
          .as(line.toString())
          .containsAll(line.keys());
    }
  }

  @Test
  void everyConcreteLine_readsByTheRules() {
    for (Line line : LINES.stream().filter(Line::concrete).toList()) {
      assertThatCode(
              () -> {
                Settings settings = Main.COMMANDS.spec(line.command()).read(line.args());
                if (line.command().equals("checkout-checkin")) {
                  LoadOptions.from(settings);
                }
              })
          .as(line.toString())
          .doesNotThrowAnyException();
    }
  }
}
