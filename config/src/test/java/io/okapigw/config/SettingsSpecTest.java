package io.okapigw.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** help and the docs table come from the same declarations; a doc's table block is replaced. */
class SettingsSpecTest {

  enum Parallel {
    OFF,
    SAFE
  }

  private static final Setting<Integer> SPEC_PORT = Setting.integer("port", 9130, 0, 65535);

  private static final SettingsSpec SPEC =
      SettingsSpec.of(
          Setting.integer("port", 9130, 0, 65535).about("HTTP port"),
          Setting.duration(
                  "proxy.idle-timeout",
                  Duration.ofSeconds(60),
                  Duration.ofMillis(1),
                  Duration.ofDays(1))
              .about("longest silence of a module")
              .details("Then 504 | naming it."),
          Setting.integer("instances", 8, 1, 256).about("event loops").shownDefault("`cores`"),
          Setting.choice("auth.parallel", Parallel.OFF)
              .about("`safe`: run the handler early ([why](docs/x.md#y))"),
          Setting.text("bootstrap", null, "T:USER:PASS:p1,p2").about("a user").repeatable());

  @Test
  void markdown_oneRowPerSetting_valuesDefaultsAndDetails() {
    assertThat(SPEC.markdown())
        .isEqualTo(
            """
            | setting | value | default | meaning |
            | --- | --- | --- | --- |
            | `port` | integer 0..65535 | 9130 | HTTP port |
            | `proxy.idle-timeout` | duration 1ms..1d | 1m | longest silence of a module. Then 504 \\| naming it. |
            | `instances` | integer 1..256 | `cores` | event loops |
            | `auth.parallel` | one of off, safe | off | `safe`: run the handler early ([why](docs/x.md#y)) |
            | `bootstrap` | T:USER:PASS:p1,p2 | none | a user (repeatable) |
            """);
  }

  @Test
  void help_flagPlaceholderDefaultAndAbout_withoutMarkdown() {
    assertThat(SPEC.help())
        .contains("  --proxy.idle-timeout DURATION  (1ms..1d; default 1m)\n")
        .contains("      longest silence of a module\n")
        .contains("  --instances N  (1..256; default cores)\n")
        .contains("  --auth.parallel off|safe  (default off)\n")
        .contains("      safe: run the handler early (why)\n")
        .contains("  --bootstrap T:USER:PASS:p1,p2  (default none; repeatable)")
        .doesNotContain("Then 504");
  }

  @Test
  void help_longAbout_wrappedIndented() {
    String about = "word ".repeat(40).trim();
    String help = SettingsSpec.of(Setting.bool("b", true).about(about)).help();
    assertThat(help.lines().skip(1))
        .hasSizeGreaterThan(1)
        .allSatisfy(
            line -> assertThat(line).startsWith("      word").hasSizeLessThanOrEqualTo(100));
  }

  @Test
  void lists_helpAndTable_showTheItemRange() {
    SettingsSpec spec =
        SettingsSpec.of(
            Setting.integers("users", List.of(8), 1, 1000).about("users, in turn"),
            Setting.sizes("sizes", List.of(1024L, 16L << 20), 1, 4L << 30).about("body sizes"));
    assertThat(spec.help())
        .contains("  --users N,...  (1..1000; default 8)\n")
        .contains("  --sizes SIZE,...  (1..4GB; default 1KB,16MB)\n");
    assertThat(spec.markdown())
        .contains("| `users` | integers 1..1000 | 8 | users, in turn |")
        .contains("| `sizes` | sizes 1..4GB | 1KB,16MB | body sizes |");
  }

  @Test
  void withoutAndIncludes_compareBySetting() {
    SettingsSpec node = SettingsSpec.of(SPEC_PORT);
    SettingsSpec cluster = node.and(SettingsSpec.of(Setting.bool("members", true)));
    assertThat(cluster.includes(node)).isTrue();
    assertThat(node.includes(cluster)).isFalse();
    assertThat(cluster.without(node).keys()).containsExactly("members");
  }

  @Test
  void of_keyTwice_refused() {
    assertThatThrownBy(() -> SettingsSpec.of(Setting.bool("b", true), Setting.bool("b", false)))
        .hasMessageStartingWith("a key is declared twice");
  }

  @Test
  void keys_inDeclaredOrder_andWithAnotherSpec() {
    assertThat(SPEC.and(SettingsSpec.of(Setting.bool("extra", true))).keys())
        .containsExactly(
            "port", "proxy.idle-timeout", "instances", "auth.parallel", "bootstrap", "extra");
  }

  @Test
  void docBlock_readAndWrite_onlyBetweenTheMarkers(@TempDir Path dir) throws IOException {
    Path doc = dir.resolve("ops.md");
    Files.writeString(
        doc, "# Ops\n<!-- settings:x begin -->\nold\n<!-- settings:x end -->\nafter\n");
    assertThat(DocBlock.read(doc, "settings:x")).isEqualTo("old\n");
    DocBlock.write(doc, "settings:x", "new\ntable\n");
    assertThat(Files.readString(doc))
        .isEqualTo(
            "# Ops\n<!-- settings:x begin -->\nnew\ntable\n<!-- settings:x end -->\nafter\n");
    assertThatThrownBy(() -> DocBlock.read(doc, "settings:y"))
        .hasMessageContaining("lacks the lines '<!-- settings:y begin -->'");
  }

  @Test
  void docBlock_sync_withoutTheProperty_onlyReads(@TempDir Path dir) throws IOException {
    Path doc = dir.resolve("ops.md");
    String text = "<!-- settings:x begin -->\nold\n<!-- settings:x end -->\n";
    Files.writeString(doc, text);
    assertThat(DocBlock.sync(doc, "settings:x", "new\n")).isEqualTo("old\n");
    assertThat(Files.readString(doc)).isEqualTo(text);
  }
}
