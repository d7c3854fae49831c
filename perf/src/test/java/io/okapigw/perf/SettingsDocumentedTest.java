package io.okapigw.perf;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.config.DocBlock;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Each perf command's settings table in {@code docs/settings.md} is the one generated from its
 * declarations, as its {@code --help} is; run with {@code -Dsettings.write=true} to rewrite them.
 */
class SettingsDocumentedTest {

  private static final Path SETTINGS = Path.of("../docs/settings.md");
  private static final String REGENERATE =
      "docs/settings.md's table of %s differs from the settings declared in the code."
          + " Regenerate it with: mvn -o -q -pl perf -am test -Dtest=SettingsDocumentedTest"
          + " -Dsurefire.failIfNoSpecifiedTests=false -Dsettings.write=true";

  @Test
  void settingsTables_oneForEveryCommand_generatedFromTheDeclarations() throws IOException {
    assertThat(Main.COMMANDS.names()).contains("checkout-checkin", "hop-compare");
    for (String command : Main.COMMANDS.names()) {
      String table = Main.COMMANDS.spec(command).markdown();
      assertThat(DocBlock.sync(SETTINGS, "settings:" + command, table))
          .as(REGENERATE, command)
          .isEqualTo(table);
    }
  }

  @Test
  void help_listsEveryCommandsSettings() {
    for (String command : Main.COMMANDS.names()) {
      for (String key : Main.COMMANDS.spec(command).keys()) {
        assertThat(Main.COMMANDS.usage(command)).as(command).contains("  --" + key + " ");
      }
    }
  }
}
