package io.okapigw.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.config.Commands.Outcome;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The gateway's command line: usage from the declarations, a bad setting stops it with 2. */
class MainTest {

  @Test
  void badValue_exitTwoWithOneLineNamingTheSetting() {
    Outcome outcome = Main.COMMANDS.execute(List.of("dev", "--proxy.idle-timeout", "60"));
    assertThat(outcome.status()).isEqualTo(2);
    assertThat(outcome.err().lines())
        .singleElement()
        .asString()
        .startsWith("bad setting: proxy.idle-timeout must be a duration")
        .endsWith("was '60' (java -jar okapi-core-fat.jar dev --help)");
  }

  @Test
  void clusterSetting_inDev_refusedAsUnknown() {
    Outcome outcome = Main.COMMANDS.execute(List.of("dev", "--members", "a:1"));
    assertThat(outcome.status()).isEqualTo(2);
    assertThat(outcome.err()).contains("unknown setting 'members'");
  }

  @Test
  void help_devSettingsOnce_clusterAddsItsOwn() {
    Outcome outcome = Main.COMMANDS.execute(List.of("help"));
    assertThat(outcome.status()).isZero();
    assertThat(outcome.out())
        .contains("\n  dev\n", "\n  cluster\n", "\n  version\n")
        .contains("\ndev settings:\n  --port N  (0..65535; default 9130)\n")
        .contains("\ncluster settings: those of dev, and\n  --cluster-host HOST");
    assertThat(outcome.out().indexOf("  --port "))
        .isEqualTo(outcome.out().lastIndexOf("  --port "));
  }
}
