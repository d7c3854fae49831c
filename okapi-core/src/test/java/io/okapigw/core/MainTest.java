package io.okapigw.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.config.Commands.Outcome;
import java.util.List;
import java.util.Map;
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
        .contains("\ndev settings:\n  --port N  (0..65535; default 9130; also http.port, -Dport)\n")
        .contains("\ncluster settings: those of dev, and\n  --cluster-host HOST");
    assertThat(outcome.out().indexOf("  --port "))
        .isEqualTo(outcome.out().lastIndexOf("  --port "));
  }

  @Test
  void help_okapisCommands_deploymentAmongThem() {
    Outcome outcome = Main.COMMANDS.execute(List.of("help"));
    assertThat(outcome.status()).isZero();
    assertThat(outcome.out())
        .contains("\n  proxy\n", "\n  initdatabase\n", "\n  purgedatabase\n")
        .contains("\n  deployment\n")
        .contains("  --hazelcast-config FILE  (default none; also hazelcast-config-file)")
        .contains("  --hazelcast-config-cp RESOURCE", "  --hazelcast-config-url URL")
        .contains("  --auth.cache.ttl DURATION  (1ms..365d; default 3m; also token_cache_ttl_ms)")
        .contains("  --healthPort N  (0..65535; default 0; also -DhealthPort)");
    assertThat(Main.COMMANDS.names())
        .containsExactly(
            "dev", "cluster", "proxy", "deployment", "initdatabase", "purgedatabase", "version");
  }

  @Test
  void deployment_okapisCommand_aClusterNode_withItsSettings() {
    Outcome outcome = Main.COMMANDS.execute(List.of("deployment", "--no-such-setting", "1"));
    assertThat(outcome.status()).isEqualTo(2);
    assertThat(outcome.err()).startsWith("bad setting: unknown setting 'no-such-setting'");
  }

  @Test
  void refusedOkapiKey_asProperty_exitTwoBeforeAnythingStarts() {
    Outcome outcome =
        Main.COMMANDS.execute(List.of("dev"), Map.of("kube_server_url", "https://k8s:6443"));
    assertThat(outcome.status()).isEqualTo(2);
    assertThat(outcome.err())
        .startsWith("bad setting: kube_server_url: this gateway does not look modules up")
        .endsWith("(java -jar okapi-core-fat.jar dev --help)\n");
  }

  @Test
  void okapisOptionOrder_confBeforeTheCommand_badValueReported() {
    Outcome outcome =
        Main.COMMANDS.execute(List.of("-conf", "/no/such/okapi.json", "dev"), Map.of());
    assertThat(outcome.status()).isEqualTo(2);
    assertThat(outcome.err()).startsWith("bad setting: conf: cannot read /no/such/okapi.json");
  }
}
