package io.okapigw.authtoken;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.okapigw.authtoken.lookup.UserLookup;
import io.okapigw.authtoken.users.BootstrapUser;
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
    assertThat(o.tokens().ttl()).isEqualTo(Duration.ofMinutes(10));
    assertThat(o.tokens().refreshTtl()).isEqualTo(Duration.ofDays(7));
    assertThat(o.passwords().iterations()).isEqualTo(600_000);
    assertThat(o.invalidation().gateways()).isEmpty();
    assertThat(o.invalidation().timeout()).isEqualTo(Duration.ofSeconds(5));
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
              "2h",
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
    assertThat(o.tokens().ttl()).isEqualTo(Duration.ofSeconds(90));
    assertThat(o.tokens().refreshTtl()).isEqualTo(Duration.ofHours(2));
    assertThat(o.bootstrap())
        .containsExactly(
            new BootstrapUser("diku", "admin", "pw", List.of("a", "b")),
            new BootstrapUser("t2", "x", "y", List.of()));
    assertThat(o.invalidation().gateways()).containsExactly("http://gw:9130");
    assertThat(o.invalidation().timeout()).isEqualTo(Duration.ofMillis(500));
    assertThat(o.invalidation().retries()).isEqualTo(3);
    assertThat(o.passwords().iterations()).isEqualTo(310_000);
    assertThat(o.passwords().threads()).isEqualTo(4);
    assertThat(o.tokens().maxLength()).isEqualTo(4096);
    assertThat(o.toJson().encode()).doesNotContain(":p@").doesNotContain("pw");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "--port|70000|port must be between 0 and 65535, was '70000'",
        "--port|abc|port must be a whole number, was 'abc'",
        "--store|mysql://x|store must be json:DIR or postgresql://user:pass@host:port/db, was"
            + " 'mysql://x'",
        "--token-ttl|10 minutes|token-ttl must be a duration: a whole number and a unit",
        "--token-ttl|PT10M|token-ttl must be a duration: a whole number and a unit",
        "--token-ttl|0s|token-ttl must be between 1s and 1d, was '0s'",
        "--refresh-ttl|1s|refresh-ttl must not be shorter than token-ttl (10m), was '1s'",
        "--gateway-url|ftp://x|gateway-url must be one http(s) URL or several, comma-separated,"
            + " was 'ftp://x'",
        "--gateway-url|not a url|gateway-url must be one http(s) URL or several, comma-separated,"
            + " was 'not a url'",
        "--gateway-url|http://a:1,ftp://b|gateway-url must be one http(s) URL or several,"
            + " comma-separated, was 'http://a:1,ftp://b'",
        "--password-hash-iterations|10|password-hash-iterations must be between 1000 and",
        "--password-hash-threads|0|password-hash-threads must be between 1 and 256, was '0'",
        "--bootstrap|diku:admin|bootstrap must be TENANT:USERNAME:PASSWORD:perm1,perm2",
        "--bootstrap|diku:admin:pw|bootstrap must be TENANT:USERNAME:PASSWORD:perm1,perm2",
        "--bootstrap|bad tenant:admin:pw:p|bootstrap: tenant must be",
        "--nonsense|1|unknown setting 'nonsense'; known settings: bootstrap, bootstrap-env,"
      })
  void parse_badSetting_failsNamingIt(String option, String value, String message) {
    assertThatThrownBy(() -> CommandLine.parse(new String[] {option, value}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(message);
  }

  @Test
  void parse_severalGatewayUrls_eachNodeInOrder() {
    AuthtokenOptions o =
        CommandLine.parse(
            new String[] {
              "--gateway-url",
              "http://gw-1:9130/, http://gw-2:9130,https://gw-3",
              "--gateway-failover-after",
              "250ms"
            });
    assertThat(o.invalidation().gateways())
        .containsExactly("http://gw-1:9130", "http://gw-2:9130", "https://gw-3");
    assertThat(o.invalidation().failoverAfter()).isEqualTo(Duration.ofMillis(250));
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
    assertThat(o.bootstrap())
        .containsExactlyInAnyOrder(
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
        "t:admin:VAR|bootstrap-env must be TENANT:USERNAME:VARIABLE:perm1,perm2",
        "bad tenant:admin:VAR:p|bootstrap-env: tenant"
      })
  void parse_bootstrapEnv_unsetEmptyOrBadVariable_failsNamingIt(String spec, String message) {
    Map<String, String> env = Map.of("EMPTY_VAR", "", "VAR", "pw");
    assertThatThrownBy(() -> CommandLine.parse(new String[] {"--bootstrap-env", spec}, env::get))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(message)
        .hasMessageStartingWith("bootstrap-env");
  }

  @Test
  void parse_missingValueOrStrayArgument_fails() {
    assertThatThrownBy(() -> CommandLine.parse(new String[] {"--port"}))
        .hasMessage("port needs a value: --port VALUE");
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
        .hasMessage("user-lookup must be one of local, gateway, was 'okapi'");
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
