package io.okapigw.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The perf fat jar stops on a bad setting with status 2 and one line, before anything starts. */
class MainTest {

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return Main.COMMANDS.execute(
        List.of(args),
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String errLine() {
    List<String> lines = err.toString(StandardCharsets.UTF_8).lines().toList();
    assertThat(lines).hasSize(1);
    return lines.get(0);
  }

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
    assertThat(run(command, flag, value)).isEqualTo(2);
    assertThat(errLine())
        .startsWith(line)
        .endsWith("(java -jar perf/target/perf-fat.jar " + command + " --help)");
    assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
  }

  @Test
  void help_listsTheCommandsThenEachOnesSettings() {
    assertThat(run("help")).isZero();
    String help = out.toString(StandardCharsets.UTF_8);
    assertThat(help)
        .startsWith("usage: java -jar perf/target/perf-fat.jar COMMAND [settings]\ncommands:\n")
        .contains("\n  checkout-checkin\n", "\n  fake-module\n", "\n  help [COMMAND]\n")
        .contains("\ncheckout-checkin settings:\n  --gateway URL[,URL...]  (default")
        .contains("  --sizes SIZE,...  (0..4GB; default 1KB,16KB,256KB,1MB,16MB,256MB)\n");
  }

  @Test
  void commandHelp_andUnknownCommand() {
    assertThat(run("checkout-checkin", "--help")).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8))
        .startsWith("usage: java -jar perf/target/perf-fat.jar checkout-checkin [settings]\n")
        .contains("  --compare true|false  (default false)\n");
    assertThat(run("checkout")).isEqualTo(2);
    assertThat(errLine()).startsWith("unknown command 'checkout'; commands: checkout-checkin,");
  }
}
