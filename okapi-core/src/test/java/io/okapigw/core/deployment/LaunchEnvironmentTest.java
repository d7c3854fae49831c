package io.okapigw.core.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** What of the gateway's environment a module's process gets: {@link LaunchEnvironment}. */
class LaunchEnvironmentTest {

  private static final Map<String, String> GATEWAY =
      Map.of(
          "PATH", "/usr/bin:/bin",
          "HOME", "/root",
          "SECRET_STORE_EPHEMERAL_CONTENT_FOLIO_MASTER_ADMIN", "admin-secret",
          "SECRET_STORE_EPHEMERAL_CONTENT_FOLIO_DIKU_MOD_USERS", "system-user-password",
          "DB_PASSWORD", "operators",
          "OKAPI_LOGLEVEL", "DEBUG");

  @Test
  void of_gatewaysSecrets_notPassed_onlyTheKeptVariablesAndTheModules() {
    Map<String, String> env =
        LaunchEnvironment.of(GATEWAY, Map.of("DB_HOST", "db", "DB_PASSWORD", "modules"));

    assertThat(env)
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "PATH", "/usr/bin:/bin",
                "HOME", "/root",
                "DB_HOST", "db",
                "DB_PASSWORD", "modules"));
  }

  @Test
  void of_modulesVariable_winsOverAKeptOne() {
    assertThat(LaunchEnvironment.of(GATEWAY, Map.of("PATH", "/opt/m/bin")))
        .containsEntry("PATH", "/opt/m/bin");
  }

  @Test
  void apply_processBuilder_getsExactlyTheEnvironment() {
    ProcessBuilder builder = LaunchEnvironment.apply(new ProcessBuilder("true"), Map.of("A", "1"));

    assertThat(builder.environment()).containsExactlyEntriesOf(Map.of("A", "1"));
  }
}
