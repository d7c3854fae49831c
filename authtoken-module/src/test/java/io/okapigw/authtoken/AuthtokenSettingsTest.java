package io.okapigw.authtoken;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.okapigw.authtoken.gateway.InvalidationOptions;
import io.okapigw.authtoken.lookup.UserLookup;
import io.okapigw.authtoken.password.PasswordOptions;
import io.okapigw.authtoken.token.TokenOptions;
import io.okapigw.authtoken.users.BootstrapUser;
import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The authtoken module reads its settings by the gateway's rules. */
class AuthtokenSettingsTest {

  /** Whether a text is a duration by the rules, whatever the setting's range. */
  private static boolean isDuration(Runnable read) {
    try {
      read.run();
      return true;
    } catch (IllegalArgumentException e) {
      return !e.getMessage().contains("must be a duration");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"500ms", "30s", "3m", "1h", "1d", "0", "300", "PT10M", "1.5s", "10 min"})
  void durations_theFormsTheGatewayAccepts(String text) {
    boolean gateway =
        isDuration(
            () ->
                Settings.of(Map.of("proxy.idle-timeout", text))
                    .get(Setting.duration("proxy.idle-timeout", Duration.ZERO)));
    boolean authtoken =
        isDuration(() -> CommandLine.parse(new String[] {"--gateway-retry-delay", text}));

    assertThat(authtoken).as("authtoken accepts '%s' as the gateway does", text).isEqualTo(gateway);
  }

  @Test
  void onLoopback_freeLoopbackPort_storeAndKeyInTheDirectory() {
    AuthtokenOptions o = AuthtokenOptions.onLoopback(Path.of("/tmp/at"));
    assertThat(o.port()).isZero();
    assertThat(o.host()).isEqualTo("127.0.0.1");
    assertThat(o.store()).isEqualTo("json:/tmp/at");
    assertThat(o.signingKeyFile()).isEqualTo(Path.of("/tmp/at/signing.key").toString());
    assertThat(o.passwords()).isEqualTo(PasswordOptions.defaults());
  }

  @Test
  void durations_inDaysAndMillis_read() {
    AuthtokenOptions o =
        CommandLine.parse(
            new String[] {"--token-ttl", "1d", "--refresh-ttl=30d", "--gateway-timeout", "250ms"});

    assertThat(o.tokens().ttl()).isEqualTo(Duration.ofDays(1));
    assertThat(o.tokens().refreshTtl()).isEqualTo(Duration.ofDays(30));
    assertThat(o.invalidation().timeout()).isEqualTo(Duration.ofMillis(250));
  }

  @Test
  void conf_readLikeTheGateways_flagsWin_arrayForRepeatable(@TempDir Path dir) throws IOException {
    Path conf = dir.resolve("authtoken.json");
    Files.writeString(
        conf,
        """
        {"port": 9000, "token-ttl": "5m", "user-lookup": "gateway",
         "bootstrap": ["diku:a:pw:p1", "diku:b:pw:"]}
        """);

    AuthtokenOptions o =
        CommandLine.parse(new String[] {"-conf", conf.toString(), "--port", "9001"});

    assertThat(o.port()).isEqualTo(9001);
    assertThat(o.tokens().ttl()).isEqualTo(Duration.ofMinutes(5));
    assertThat(o.userLookup()).isEqualTo(UserLookup.GATEWAY);
    assertThat(o.bootstrap()).extracting(BootstrapUser::username).containsExactly("a", "b");
  }

  @Test
  void valueInCode_checkedByTheSameDeclaration() {
    TokenOptions tokens = TokenOptions.defaults();
    assertThatThrownBy(() -> new TokenOptions(tokens.ttl(), tokens.refreshTtl(), 100))
        .hasMessage("max-token-length must be between 256 and 16384, was '100'");
    assertThatThrownBy(() -> tokens.withTtl(Duration.ofDays(2)))
        .hasMessage("token-ttl must be between 1s and 1d, was '2d'");
    assertThatThrownBy(() -> tokens.withTtl(Duration.ofDays(8)))
        .hasMessage("token-ttl must be between 1s and 1d, was '8d'");
    assertThatThrownBy(() -> AuthtokenOptions.defaults().withPort(70_000))
        .hasMessage("port must be between 0 and 65535, was '70000'");
    assertThatThrownBy(() -> AuthtokenOptions.defaults().withStore("mysql://x"))
        .hasMessageStartingWith("store must be json:DIR or postgresql://");
    assertThatThrownBy(() -> InvalidationOptions.to("ftp://x"))
        .hasMessage(
            "gateway-url must be one http(s) URL or several, comma-separated, was 'ftp://x'");
  }

  @Test
  void noSettings_theDeclaredDefaults() {
    AuthtokenOptions o = CommandLine.parse(new String[0]);

    assertThat(o).isEqualTo(AuthtokenOptions.defaults());
    assertThat(o.port()).isEqualTo(AuthtokenOptions.PORT.defaultValue());
    assertThat(o.tokens().ttl()).isEqualTo(TokenOptions.TTL.defaultValue());
    assertThat(o.userLookup()).isEqualTo(UserLookup.LOCAL);
    assertThat(o.bootstrap()).isEqualTo(List.of());
  }
}
