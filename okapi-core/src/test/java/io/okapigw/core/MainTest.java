package io.okapigw.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The gateway's command line: usage from the declarations, a bad setting stops it with 2. */
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
  void badValue_exitTwoWithOneLineNamingTheSetting() {
    assertThat(run("dev", "--proxy.idle-timeout", "60")).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8).lines())
        .singleElement()
        .asString()
        .startsWith("bad setting: proxy.idle-timeout must be a duration")
        .endsWith("was '60' (java -jar okapi-core-fat.jar dev --help)");
  }

  @Test
  void clusterSetting_inDev_refusedAsUnknown() {
    assertThat(run("dev", "--members", "a:1")).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("unknown setting 'members'");
  }

  @Test
  void help_devSettingsOnce_clusterAddsItsOwn() {
    assertThat(run("help")).isZero();
    String help = out.toString(StandardCharsets.UTF_8);
    assertThat(help)
        .contains("\n  dev\n", "\n  cluster\n", "\n  version\n")
        .contains("\ndev settings:\n  --port N  (0..65535; default 9130)\n")
        .contains("\ncluster settings: those of dev, and\n  --cluster-host HOST");
    assertThat(help.indexOf("  --port ")).isEqualTo(help.lastIndexOf("  --port "));
  }
}
