package io.okapigw.authtoken;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.config.DocBlock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The module's settings table in {@code docs/settings.md} is the one generated from {@link
 * AuthtokenOptions#SETTINGS}, as {@code --help} is; run with {@code -Dsettings.write=true} to
 * rewrite it.
 */
class SettingsDocumentedTest {

  private static final Path SETTINGS_DOC = Path.of("../docs/settings.md");
  private static final String BLOCK = "settings:authtoken";
  private static final String REGENERATE =
      "docs/settings.md's authtoken settings table differs from the settings declared in"
          + " AuthtokenOptions. Regenerate it with: mvn -o -q -pl authtoken-module -am test"
          + " -Dtest=SettingsDocumentedTest -Dsurefire.failIfNoSpecifiedTests=false"
          + " -Dsettings.write=true";

  @Test
  void operationsTable_isGeneratedFromTheDeclarations() throws IOException {
    String table = AuthtokenOptions.SETTINGS.markdown();
    assertThat(DocBlock.sync(SETTINGS_DOC, BLOCK, table)).as(REGENERATE).isEqualTo(table);
  }

  @Test
  void help_listsEverySetting() {
    for (String key : AuthtokenOptions.SETTINGS.keys()) {
      assertThat(CommandLine.USAGE).as("help").contains("  --" + key + " ");
    }
  }

  @Test
  void authtokenDoc_keepsNoSettingsTableOfItsOwn() throws IOException {
    String doc = Files.readString(Path.of("../docs/authtoken.md"));
    for (String key : AuthtokenOptions.SETTINGS.keys()) {
      assertThat(doc).as("docs/authtoken.md row for " + key).doesNotContain("| `--" + key);
    }
  }
}
