package io.okapigw.perf;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.config.Commands.Outcome;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The perf fat jar stops on a bad setting with status 2 and one line, before anything starts. */
class MainTest {

  @ParameterizedTest
  @CsvSource({
    "checkout-checkin, --duration, 60, bad setting: duration must be a duration",
    "checkout-checkin, --users, '1,x', bad setting: users must be whole numbers",
    "checkout-checkin, --gateway, http://192.0.2.10:9130, bad setting: --gateway"
        + " http://192.0.2.10:9130: host 192.0.2.10 is not a loopback address",
    "cluster-throughput, --gateway, http://localhost:9130, bad setting: unknown setting 'gateway'",
    "invalidation-latency, --max-time, 10, bad setting: max-time must be a duration",
    "fullfake, --sizes, '1KB,1TB', bad setting: sizes must be sizes separated by commas",
    "parallel-auth, --clients, '1,0', bad setting: clients must be between 1 and 256 each",
    "fixed-module, --size, 1K, bad setting: size must be a size",
    "fake-module, --port, 0, bad setting: port must be between 1 and 65535"
  })
  void badValue_exitTwoWithOneLineNamingTheSetting(
      String command, String flag, String value, String line) {
    Outcome outcome = Main.COMMANDS.execute(List.of(command, flag, value));
    assertThat(outcome.status()).isEqualTo(2);
    assertThat(outcome.err().lines())
        .singleElement()
        .asString()
        .startsWith(line)
        .endsWith("(java -jar perf/target/perf-fat.jar " + command + " --help)");
    assertThat(outcome.out()).isEmpty();
  }

  @Test
  void help_listsTheCommandsThenEachOnesSettings() {
    Outcome outcome = Main.COMMANDS.execute(List.of("help"));
    assertThat(outcome.status()).isZero();
    assertThat(outcome.out())
        .startsWith("usage: java -jar perf/target/perf-fat.jar COMMAND [settings]\ncommands:\n")
        .contains("\n  checkout-checkin\n", "\n  fake-module\n", "\n  help [COMMAND]\n")
        .contains("\ncheckout-checkin settings:\n  --gateway URL[,URL...]  (default")
        .contains("  --sizes SIZE,...  (0..4GB; default 1KB,16KB,256KB,1MB,16MB,256MB)\n");
  }

  @Test
  void commandHelp_andUnknownCommand() {
    assertThat(Main.COMMANDS.execute(List.of("checkout-checkin", "--help")).out())
        .startsWith("usage: java -jar perf/target/perf-fat.jar checkout-checkin [settings]\n")
        .contains("  --compare true|false  (default false)\n");
    Outcome unknown = Main.COMMANDS.execute(List.of("checkout"));
    assertThat(unknown.status()).isEqualTo(2);
    assertThat(unknown.err()).startsWith("unknown command 'checkout'; commands: checkout-checkin,");
  }
}
