package io.okapigw.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.config.DocBlock;
import io.okapigw.core.config.GatewaySettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The gateway's settings table in {@code docs/settings.md} is the one generated from {@link
 * GatewaySettings}, as {@code help} is; run with {@code -Dsettings.write=true} to rewrite the
 * table.
 */
class SettingsDocumentedTest {

  private static final Path SETTINGS_DOC = Path.of("../docs/settings.md");
  private static final String BLOCK = "settings:gateway";
  static final String REGENERATE =
      "docs/settings.md's gateway settings table differs from the settings declared in the code"
          + " (GatewaySettings and the options classes). Regenerate it with: mvn -o -q -pl"
          + " okapi-core -am test -Dtest=SettingsDocumentedTest"
          + " -Dsurefire.failIfNoSpecifiedTests=false -Dsettings.write=true";

  @Test
  void operationsTable_isGeneratedFromTheDeclarations() throws IOException {
    String table = GatewaySettings.ALL.markdown();
    assertThat(DocBlock.sync(SETTINGS_DOC, BLOCK, table)).as(REGENERATE).isEqualTo(table);
  }

  @Test
  void okapiKeysTable_isGeneratedFromTheDeclarations() throws IOException {
    String table = GatewaySettings.ALL.aliasMarkdown("Okapi's key");
    assertThat(DocBlock.sync(SETTINGS_DOC, "settings:okapi", table))
        .as(REGENERATE)
        .isEqualTo(table);
  }

  @Test
  void help_listsEverySetting() {
    for (String key : GatewaySettings.ALL.keys()) {
      assertThat(Main.COMMANDS.usage("cluster")).as("help").contains("  --" + key + " ");
    }
  }

  @Test
  void readme_keepsNoSettingsTableOfItsOwn_butLinksToTheOne() throws IOException {
    String readme = Files.readString(Path.of("../README.md"));
    for (String key : GatewaySettings.ALL.keys()) {
      assertThat(readme).as("README.md row for " + key).doesNotContain("| `" + key + "` |");
    }
    assertThat(readme)
        .contains("docs/settings.md#gateway-java--jar-okapi-core-fatjar-devcluster-settings");
  }
}
