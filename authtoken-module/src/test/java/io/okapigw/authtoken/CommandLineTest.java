package io.okapigw.authtoken;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.okapigw.authtoken.lookup.UserLookup;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Command-line parsing and option validation. */
class CommandLineTest {

  @Test
  void parse_noArguments_defaults() {
    AuthtokenOptions o = CommandLine.parse(new String[0]);
    assertThat(o.port()).isEqualTo(8081);
    assertThat(o.store()).isEqualTo("json:./data/authtoken");
    assertThat(o.signingKeyFile()).isEqualTo("./data/authtoken/signing.key");
    assertThat(o.tokenTtl()).isEqualTo(Duration.ofMinutes(10));
    assertThat(o.refreshTtl()).isEqualTo(Duration.ofDays(7));
    assertThat(o.passwordHashIterations()).isEqualTo(600_000);
    assertThat(o.gatewayUrl()).isNull();
    assertThat(o.gatewayTimeout()).isEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void parse_everyOption() {
    AuthtokenOptions o =
        CommandLine.parse(
            new String[] {
              "--port",
              "9000",
              "--host=127.0.0.1",
              "--store",
              "postgresql://u:p@localhost:5432/db",
              "--signing-key-file",
              "/tmp/k",
              "--token-ttl",
              "90s",
              "--refresh-ttl",
              "PT2H",
              "--bootstrap",
              "diku:admin:pw:a,b",
              "--bootstrap",
              "t2:x:y:",
              "--gateway-url",
              "http://gw:9130/",
              "--gateway-timeout",
              "500ms",
              "--gateway-retry-delay",
              "2s",
              "--gateway-retries",
              "3",
              "--password-hash-iterations",
              "310000",
              "--password-hash-threads",
              "4",
              "--max-token-length",
              "4096"
            });
    assertThat(o.port()).isEqualTo(9000);
    assertThat(o.host()).isEqualTo("127.0.0.1");
    assertThat(o.store()).isEqualTo("postgresql://u:p@localhost:5432/db");
    assertThat(o.tokenTtl()).isEqualTo(Duration.ofSeconds(90));
    assertThat(o.refreshTtl()).isEqualTo(Duration.ofHours(2));
    assertThat(o.bootstrapUsers())
        .containsExactly(
            new BootstrapUser("diku", "admin", "pw", List.of("a", "b")),
            new BootstrapUser("t2", "x", "y", List.of()));
    assertThat(o.gatewayUrl()).isEqualTo("http://gw:9130");
    assertThat(o.gatewayTimeout()).isEqualTo(Duration.ofMillis(500));
    assertThat(o.gatewayRetries()).isEqualTo(3);
    assertThat(o.passwordHashIterations()).isEqualTo(310_000);
    assertThat(o.passwordHashThreads()).isEqualTo(4);
    assertThat(o.maxTokenLength()).isEqualTo(4096);
    assertThat(o.toJson().encode()).doesNotContain(":p@").doesNotContain("pw");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "--port|70000|--port",
        "--port|abc|--port",
        "--store|mysql://x|--store",
        "--token-ttl|10 minutes|--token-ttl",
        "--token-ttl|0s|--token-ttl",
        "--refresh-ttl|1s|--refresh-ttl",
        "--gateway-url|ftp://x|--gateway-url",
        "--gateway-url|not a url|--gateway-url",
        "--password-hash-iterations|10|--password-hash-iterations",
        "--password-hash-threads|0|--password-hash-threads",
        "--bootstrap|diku:admin|--bootstrap",
        "--bootstrap|diku:admin:pw|--bootstrap",
        "--bootstrap|bad tenant:admin:pw:p|--bootstrap",
        "--nonsense|1|--nonsense"
      })
  void parse_badSetting_failsNamingIt(String option, String value, String named) {
    assertThatThrownBy(() -> CommandLine.parse(new String[] {option, value}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(named);
  }

  @Test
  void parse_bootstrapEnv_readsThePasswordFromTheVariable_existingSyntaxUnchanged() {
    Map<String, String> env = Map.of("SUPER_ADMIN_PASSWORD", "s3cret:with:colons");
    AuthtokenOptions o =
        CommandLine.parse(
            new String[] {
              "--bootstrap-env",
                  "supertenant:super_admin:SUPER_ADMIN_PASSWORD:okapi.all,authtoken.all",
              "--bootstrap", "supertenant:plain:env:X:okapi.all"
            },
            env::get);
    assertThat(o.bootstrapUsers())
        .containsExactly(
            new BootstrapUser(
                "supertenant",
                "super_admin",
                "s3cret:with:colons",
                List.of("okapi.all", "authtoken.all")),
            new BootstrapUser("supertenant", "plain", "env:X", List.of("okapi.all")));
    assertThat(o.toJson().encode()).doesNotContain("s3cret").contains("supertenant:super_admin");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "t:admin:UNSET_VAR:p|environment variable UNSET_VAR is not set",
        "t:admin:EMPTY_VAR:p|environment variable EMPTY_VAR is empty",
        "t:admin:1BAD:p|1BAD is not an environment variable name",
        "t:admin:A:B:p|A:B is not an environment variable name",
        "t:admin:VAR|--bootstrap-env must be TENANT:USERNAME:VARIABLE:perm1,perm2",
        "bad tenant:admin:VAR:p|--bootstrap-env: tenant"
      })
  void parse_bootstrapEnv_unsetEmptyOrBadVariable_failsNamingIt(String spec, String message) {
    Map<String, String> env = Map.of("EMPTY_VAR", "", "VAR", "pw");
    assertThatThrownBy(() -> CommandLine.parse(new String[] {"--bootstrap-env", spec}, env::get))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(message)
        .hasMessageStartingWith("--bootstrap-env");
  }

  @Test
  void parse_missingValueOrStrayArgument_fails() {
    assertThatThrownBy(() -> CommandLine.parse(new String[] {"--port"}))
        .hasMessageContaining("--port");
    assertThatThrownBy(() -> CommandLine.parse(new String[] {"8081"})).hasMessageContaining("8081");
  }

  @Test
  void parse_userLookup_localByDefault_gatewayOnRequest_elseRefusedByName() {
    assertThat(CommandLine.parse(new String[0]).userLookup()).isEqualTo(UserLookup.LOCAL);
    assertThat(CommandLine.parse(new String[] {"--user-lookup", "gateway"}).userLookup())
        .isEqualTo(UserLookup.GATEWAY);
    assertThat(
            CommandLine.parse(new String[] {"--user-lookup", "gateway"})
                .toJson()
                .getString("userLookup"))
        .isEqualTo("gateway");
    assertThatThrownBy(() -> CommandLine.parse(new String[] {"--user-lookup", "okapi"}))
        .hasMessageContaining("--user-lookup must be local or gateway");
    assertThat(CommandLine.USAGE).contains("--user-lookup local|gateway");
  }

  @Test
  void wantsHelp_recognisesHelp() {
    assertThat(CommandLine.wantsHelp(new String[] {"--port", "1", "--help"})).isTrue();
    assertThat(CommandLine.wantsHelp(new String[] {"--port", "1"})).isFalse();
    assertThat(CommandLine.USAGE)
        .contains("--bootstrap")
        .contains("--bootstrap-env")
        .contains("--store");
  }

  @Test
  void bootstrapUser_toStringHidesThePassword() {
    assertThat(BootstrapUser.parse("diku:admin:s3cret:p").toString()).doesNotContain("s3cret");
  }
}
