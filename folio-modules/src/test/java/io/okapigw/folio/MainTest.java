package io.okapigw.folio;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The fat jar's command line stops on a bad setting before anything starts. */
class MainTest {

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return Main.COMMANDS.execute(
        List.of(args),
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @Test
  void badValue_exitTwoWithOneLineNamingTheKey() {
    assertThat(run("register", "--timeout", "180")).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8).lines())
        .singleElement()
        .asString()
        .startsWith("bad setting: timeout must be a duration")
        .endsWith("(java -jar folio-modules/target/folio-modules-fat.jar register --help)");
  }

  @Test
  void unknownCommand_exitTwoNamingTheCommands() {
    assertThat(run("serve")).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("commands: modules, register");
  }

  @Test
  void commandHelp_printsItsSettings() {
    assertThat(run("modules", "--help")).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8))
        .contains("  --advertise-host HOST  (a host name or address; default localhost)\n");
  }
}
