package io.okapigw.folio.containers;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.config.DocBlock;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The tables of {@code modules}, {@code module} and {@code register} in {@code docs/settings.md}
 * are the ones generated from their declarations, as {@code help} is; run with {@code
 * -Dsettings.write=true} to rewrite them.
 */
class SettingsDocumentedTest {

  private static final String REGENERATE =
      "docs/settings.md's table of %s differs from the settings declared in the code"
          + " (ModulesOptions, ModuleCommand, RegisterOptions). Regenerate it with: mvn -o -q -pl folio-modules"
          + " -am test -Dtest=SettingsDocumentedTest -Dsurefire.failIfNoSpecifiedTests=false"
          + " -Dsettings.write=true";

  @Test
  void operationsTables_areGeneratedFromTheDeclarations() throws IOException {
    assertThat(Main.COMMANDS.names()).containsExactly("modules", "module", "register");
    for (String command : Main.COMMANDS.names()) {
      String table = Main.COMMANDS.spec(command).markdown();
      assertThat(DocBlock.sync(Path.of("../docs/settings.md"), "settings:" + command, table))
          .as(REGENERATE, command)
          .isEqualTo(table);
    }
  }

  @Test
  void help_listsEveryCommandsSettings() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int status =
        Main.COMMANDS.execute(
            List.of("help"),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    String help = out.toString(StandardCharsets.UTF_8);
    assertThat(status).isZero();
    assertThat(help).startsWith("usage: java -jar folio-modules/target/folio-modules-fat.jar");
    for (String command : Main.COMMANDS.names()) {
      assertThat(help).contains("\n  " + command + "\n").contains("\n" + command + " settings:");
      for (String key : Main.COMMANDS.spec(command).keys()) {
        assertThat(Main.COMMANDS.usage(command)).contains("  --" + key + " ");
      }
    }
  }
}
