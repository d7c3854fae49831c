package io.okapigw.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.config.DocBlock;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The demo's settings table in {@code docs/settings.md} is the one generated from {@link
 * DemoOptions}, as {@code demo --help} is; run with {@code -Dsettings.write=true} to rewrite it.
 */
class SettingsDocumentedTest {

  private static final String REGENERATE =
      "docs/settings.md's demo settings table differs from the settings declared in"
          + " DemoOptions. Regenerate it with: mvn -o -q -pl demo -am test"
          + " -Dtest=SettingsDocumentedTest -Dsurefire.failIfNoSpecifiedTests=false"
          + " -Dsettings.write=true";

  @Test
  void operationsTable_isGeneratedFromTheDeclarations() throws IOException {
    String table = Main.COMMANDS.spec("demo").markdown();
    assertThat(DocBlock.sync(Path.of("../docs/settings.md"), "settings:demo", table))
        .as(REGENERATE)
        .isEqualTo(table);
  }

  @Test
  void help_listsEverySetting() {
    for (String key : DemoOptions.SPEC.keys()) {
      assertThat(Main.COMMANDS.usage("demo")).as("help").contains("  --" + key + " ");
    }
  }
}
