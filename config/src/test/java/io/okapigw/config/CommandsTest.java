package io.okapigw.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.okapigw.config.Commands.Outcome;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A program's commands: dispatch, usage from the declarations, exit 2 naming what is bad. */
class CommandsTest {

  private static final Setting<Integer> PORT = Setting.integer("port", 9130, 1, 65535);
  private static final Setting<Duration> DURATION =
      Setting.duration("duration", Duration.ofSeconds(60), Duration.ofSeconds(1), null);
  private static final Setting<Boolean> COMPARE = Setting.bool("compare", false);
  private static final SettingsSpec SERVE = SettingsSpec.of(PORT);
  private static final SettingsSpec LOAD =
      SERVE.and(SettingsSpec.of(DURATION, COMPARE.about("three stacks side by side")));

  private final List<String> ran = new ArrayList<>();
  private Commands commands;

  @BeforeEach
  void declare() {
    commands =
        Commands.of("java -jar tool.jar")
            .add("serve", "serves on a port", SERVE, s -> ran.add("serve " + s.get(PORT)))
            .add(
                "load",
                "loads it",
                LOAD,
                s -> ran.add("load " + s.get(PORT) + " " + s.get(DURATION) + " " + s.get(COMPARE)))
            .add("version", "prints the version", () -> ran.add("version"));
  }

  private Outcome run(String... args) {
    return commands.execute(List.of(args));
  }

  @Test
  void execute_command_runsWithItsSettings() {
    assertThat(run("load", "--duration", "2m", "--compare", "--port=1"))
        .isEqualTo(new Outcome(0, "", ""));
    assertThat(run("serve").status()).isZero();
    assertThat(run("version").status()).isZero();
    assertThat(ran).containsExactly("load 1 PT2M true", "serve 9130", "version");
  }

  @Test
  void execute_badValue_exitTwoWithOneLineNamingTheKey_nothingRun() {
    Outcome outcome = run("load", "--duration", "60");
    assertThat(outcome.status()).isEqualTo(2);
    assertThat(ran).isEmpty();
    assertThat(outcome.err().lines())
        .singleElement()
        .asString()
        .startsWith("bad setting: duration must be a duration")
        .endsWith("was '60' (java -jar tool.jar load --help)");
    assertThat(outcome.out()).isEmpty();
  }

  @Test
  void execute_settingOfAnotherCommand_refusedAsUnknown() {
    Outcome outcome = run("serve", "--duration", "1s");
    assertThat(outcome.status()).isEqualTo(2);
    assertThat(outcome.err()).contains("unknown setting 'duration'; known settings: port");
  }

  @Test
  void execute_runnerRefusingACombination_exitTwo() {
    Commands strict =
        Commands.of("x")
            .add(
                "go",
                "goes",
                SERVE,
                s -> {
                  throw new IllegalArgumentException("port 1 is taken");
                });
    assertThat(strict.execute(List.of("go")))
        .isEqualTo(new Outcome(2, "", "bad setting: port 1 is taken (x go --help)\n"));
  }

  @Test
  void execute_unknownCommand_exitTwoListingTheCommands() {
    assertThat(run("lod"))
        .isEqualTo(
            new Outcome(
                2,
                "",
                "unknown command 'lod'; commands: serve, load, version (help: java -jar tool.jar"
                    + " help)\n"));
  }

  @Test
  void execute_helpOrNothing_printsUsage_exitZero() {
    for (Outcome outcome : List.of(run(), run("help"), run("--help"))) {
      assertThat(outcome.status()).isZero();
      assertThat(outcome.out()).isEqualTo(commands.usage());
    }
    assertThat(ran).isEmpty();
  }

  @Test
  void execute_commandHelp_printsThatCommandOnly() {
    assertThat(run("load", "--help").out())
        .startsWith("usage: java -jar tool.jar load [settings]\n      loads it\n")
        .contains("  --duration DURATION  (>= 1s; default 1m)\n");
    assertThat(run("load", "--port", "1", "-h").out()).isEqualTo(commands.usage("load"));
    assertThat(run("help", "serve").out())
        .startsWith("usage: java -jar tool.jar serve [settings]\n");
    assertThat(ran).isEmpty();
    assertThat(run("help", "lod").status()).isEqualTo(2);
  }

  @Test
  void execute_toStreams_printsThere() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status =
        commands.execute(
            List.of("serve", "--port", "x"),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    assertThat(status).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .startsWith("bad setting: port must be a whole number, was 'x'");
  }

  @Test
  void usage_commandsRulesAndEachCommandsSettings_sharedOnesOnce() {
    String usage = commands.usage();
    assertThat(usage)
        .startsWith(
            "usage: java -jar tool.jar COMMAND [settings]\ncommands:\n  serve\n      serves on a"
                + " port\n  load\n")
        .contains("  help [COMMAND]\n")
        .contains(Settings.RULES)
        .contains("serve settings:\n  --port N  (1..65535; default 9130)\n")
        .contains(
            "load settings: those of serve, and\n  --duration DURATION  (>= 1s; default 1m)\n")
        .contains("  --compare true|false  (default false)\n      three stacks side by side\n")
        .doesNotContain("version settings");
    assertThat(usage.indexOf("--port ")).isEqualTo(usage.lastIndexOf("--port "));
  }

  @Test
  void add_nameTwiceOrHelp_refused() {
    assertThatThrownBy(() -> commands.add("load", "again", SERVE, s -> {}))
        .hasMessage("command load is declared twice");
    assertThatThrownBy(() -> commands.add("help", "mine", SERVE, s -> {}))
        .hasMessage("command help is declared twice");
  }

  @Test
  void spec_ofACommand_forItsDocsTable() {
    assertThat(commands.spec("load").keys()).containsExactly("port", "duration", "compare");
    assertThat(commands.names()).containsExactly("serve", "load", "version");
    assertThatThrownBy(() -> commands.spec("lod")).hasMessage("no command lod");
  }
}
