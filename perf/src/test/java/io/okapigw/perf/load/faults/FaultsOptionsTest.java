package io.okapigw.perf.load.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.okapigw.perf.load.faults.FaultsOptions.Scenario;
import io.okapigw.testsupport.TestPostgres;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class FaultsOptionsTest {

  private static FaultsOptions parse(String... args) {
    return FaultsOptions.from(FaultsOptions.SPEC.read(List.of(args)));
  }

  @Test
  void defaults_killEightUsersPhasesOfTenSeconds() {
    FaultsOptions o = parse();

    assertThat(o.scenario()).isEqualTo(Scenario.KILL);
    assertThat(o.users()).isEqualTo(8);
    assertThat(o.phase()).isEqualTo(Duration.ofSeconds(10));
    assertThat(o.floodFactor()).isEqualTo(10);
    assertThat(o.gatewayArgs()).isEmpty();
    assertThat(o.okapiJar()).isNull();
  }

  @Test
  void scenario_byItsName() {
    assertThat(parse("--scenario", "rolling-restart").scenario())
        .isEqualTo(Scenario.ROLLING_RESTART);
    assertThat(parse("--scenario", "okapi-kill").scenario()).isEqualTo(Scenario.OKAPI_KILL);
    assertThat(parse("--scenario", "auth-module").scenario()).isEqualTo(Scenario.AUTH_MODULE);
    assertThat(parse("--scenario", "database").scenario()).isEqualTo(Scenario.DATABASE);
    assertThat(parse("--scenario", "revoke-node-down").scenario())
        .isEqualTo(Scenario.REVOKE_NODE_DOWN);
    assertThat(parse("--scenario", "node-pause").scenario()).isEqualTo(Scenario.NODE_PAUSE);
    assertThatThrownBy(() -> parse("--scenario", "reboot")).hasMessageContaining("scenario");
  }

  @Test
  void gatewayArgs_passedThroughWordByWord() {
    FaultsOptions o = parse("--gateway-args", "  --instances 2   --some.limit 16 ");

    assertThat(o.gatewayArgs()).containsExactly("--instances", "2", "--some.limit", "16");
  }

  @Test
  void okapiKill_withoutOrWithAMissingJar_isSkippedWithTheReason() {
    assertThat(FaultsCommand.skipReason(parse("--scenario", "okapi-kill")))
        .contains("no --okapi-jar");
    assertThat(
            FaultsCommand.skipReason(
                parse("--scenario", "okapi-kill", "--okapi-jar", "/nonexistent/okapi.jar")))
        .isEqualTo("no such file: " + Path.of("/nonexistent/okapi.jar"));
    assertThat(FaultsCommand.skipReason(parse("--scenario", "kill"))).isNull();
  }

  @Test
  void database_skippedWithTheReasonExactlyWhenThereIsNoPostgresqlServer() {
    assertThat(FaultsCommand.skipReason(parse("--scenario", "database")))
        .isEqualTo(TestPostgres.ownServerUnavailable());
  }

  @Test
  void phase_underASecond_isRefusedNamingTheFlag() {
    assertThatThrownBy(() -> parse("--phase", "500ms")).hasMessageContaining("phase");
  }
}
