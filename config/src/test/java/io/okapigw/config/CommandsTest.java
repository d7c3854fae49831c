package io.okapigw.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
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

  private int run(String... args) {
    return commands.execute(
        List.of(args),
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void execute_command_runsWithItsSettings() {
    assertThat(run("load", "--duration", "2m", "--compare", "--port=1")).isZero();
    assertThat(run("serve")).isZero();
    assertThat(run("version")).isZero();
    assertThat(ran).containsExactly("load 1 PT2M true", "serve 9130", "version");
    assertThat(err()).isEmpty();
  }

  @Test
  void execute_badValue_exitTwoWithOneLineNamingTheKey_nothingRun() {
    assertThat(run("load", "--duration", "60")).isEqualTo(2);
    assertThat(ran).isEmpty();
    assertThat(err().lines())
        .singleElement()
        .asString()
        .startsWith("bad setting: duration must be a duration")
        .endsWith("was '60' (java -jar tool.jar load --help)");
  }

  @Test
  void execute_settingOfAnotherCommand_refusedAsUnknown() {
    assertThat(run("serve", "--duration", "1s")).isEqualTo(2);
    assertThat(err()).contains("unknown setting 'duration'; known settings: port");
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
    int status =
        strict.execute(
            List.of("go"),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    assertThat(status).isEqualTo(2);
    assertThat(err()).isEqualTo("bad setting: port 1 is taken (x go --help)\n");
  }

  @Test
  void execute_unknownCommand_exitTwoListingTheCommands() {
    assertThat(run("lod")).isEqualTo(2);
    assertThat(err())
        .isEqualTo(
            "unknown command 'lod'; commands: serve, load, version (help: java -jar tool.jar"
                + " help)\n");
    assertThat(out()).isEmpty();
  }

  @Test
  void execute_helpOrNothing_printsUsage_exitZero() {
    assertThat(run()).isZero();
    assertThat(run("help")).isZero();
    assertThat(run("--help")).isZero();
    assertThat(ran).isEmpty();
    assertThat(out()).contains("usage: java -jar tool.jar COMMAND [settings]");
  }

  @Test
  void execute_commandHelp_printsThatCommandOnly() {
    assertThat(run("load", "--help")).isZero();
    assertThat(run("help", "serve")).isZero();
    assertThat(run("load", "--port", "1", "-h")).isZero();
    assertThat(ran).isEmpty();
    assertThat(out())
        .contains("usage: java -jar tool.jar load [settings]\n      loads it\n")
        .contains("  --duration DURATION  (>= 1s; default 1m)\n")
        .contains("usage: java -jar tool.jar serve [settings]\n");
    assertThat(run("help", "lod")).isEqualTo(2);
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
