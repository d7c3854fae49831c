package io.okapigw.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.okapigw.config.Commands.Outcome;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The demo's settings as README and the docs write them, and bad ones refused by name. */
class DemoOptionsTest {

  private static DemoOptions parse(String... args) {
    return DemoOptions.from(DemoOptions.SPEC.read(List.of(args)));
  }

  @Test
  void defaults_port9130_thousandOfEach_authAndCacheOn() {
    assertThat(parse())
        .isEqualTo(new DemoOptions(9130, 1000, 1000, true, true, Path.of("data/demo"), false));
  }

  @Test
  void documentedExamples_read() {
    DemoOptions o =
        parse(
            "--port",
            "0",
            "--patrons",
            "50",
            "--items=60",
            "--auth",
            "on",
            "--cache",
            "off",
            "--data-dir",
            "/tmp/d",
            "--user-lookup",
            "gateway");
    assertThat(o).isEqualTo(new DemoOptions(0, 50, 60, true, false, Path.of("/tmp/d"), true));
    assertThat(parse("--cache", "yes", "--auth", "false").mode()).isEqualTo("auth off");
  }

  @Test
  void badValues_refusedNamingTheKey() {
    assertThatThrownBy(() -> parse("--cache", "maybe"))
        .hasMessage("cache must be true or false (also yes/no, on/off), was 'maybe'");
    assertThatThrownBy(() -> parse("--user-lookup", "remote"))
        .hasMessage("user-lookup must be one of local, gateway, was 'remote'");
    assertThatThrownBy(() -> parse("--items", "0"))
        .hasMessage("items must be between 1 and 1000000, was '0'");
    assertThatThrownBy(() -> parse("--tenant", "x"))
        .hasMessageStartingWith("unknown setting 'tenant'");
  }

  @Test
  void main_badValue_exitTwoWithOneLineNamingTheKey() {
    Outcome outcome = Main.COMMANDS.execute(List.of("demo", "--cache", "maybe"));
    assertThat(outcome.status()).isEqualTo(2);
    assertThat(outcome.err().lines())
        .singleElement()
        .asString()
        .startsWith("bad setting: cache must be true or false");
    assertThat(outcome.out()).isEmpty();
  }

  @Test
  void main_help_listsTheDemosSettings() {
    Outcome outcome = Main.COMMANDS.execute(List.of("demo", "--help"));
    assertThat(outcome.status()).isZero();
    assertThat(outcome.out())
        .startsWith("usage: java -jar demo/target/demo-fat.jar demo [settings]\n")
        .contains("  --cache true|false  (default true)\n")
        .contains("  --user-lookup local|gateway  (default local)\n");
  }
}
