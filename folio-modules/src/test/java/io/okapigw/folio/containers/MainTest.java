package io.okapigw.folio.containers;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.config.Commands.Outcome;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The fat jar's command line stops on a bad setting before anything starts. */
class MainTest {

  @Test
  void badValue_exitTwoWithOneLineNamingTheKey() {
    Outcome outcome = Main.COMMANDS.execute(List.of("register", "--timeout", "180"));
    assertThat(outcome.status()).isEqualTo(2);
    assertThat(outcome.err().lines())
        .singleElement()
        .asString()
        .startsWith("bad setting: timeout must be a duration")
        .endsWith("(java -jar folio-modules/target/folio-modules-fat.jar register --help)");
  }

  @Test
  void unknownCommand_exitTwoNamingTheCommands() {
    Outcome outcome = Main.COMMANDS.execute(List.of("serve"));
    assertThat(outcome.status()).isEqualTo(2);
    assertThat(outcome.err()).contains("commands: modules, module, register");
  }

  @Test
  void commandHelp_printsItsSettings() {
    Outcome outcome = Main.COMMANDS.execute(List.of("modules", "--help"));
    assertThat(outcome.status()).isZero();
    assertThat(outcome.out())
        .contains("  --advertise-host HOST  (a host name or address; default localhost)\n");
  }
}
