package io.okapigw.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.okapigw.config.Commands.Outcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Another program's keys for a setting (aliases), read from flags, {@code -D} system properties and
 * {@code -conf}; keys refused with a reason or accepted with a note; the command word after
 * settings; commands refused.
 */
class AliasesTest {

  /** Okapi reads -Dhttp.port, then -Dport, then the conf's http.port, then port. */
  private static final Setting<Integer> PORT =
      Setting.integer("port", 9130, 0, 65535).alias("http.port").alias("port");

  private static final Setting<String> URL =
      Setting.text("okapi-url", null, "URL").alias("okapiurl", s -> s.replaceAll("/+$", ""), "URL");

  private static final Setting<Duration> TTL =
      Setting.duration("cache.ttl", Duration.ofMinutes(3), Duration.ofMillis(1), Duration.ofDays(1))
          .alias("token_cache_ttl_ms", AliasesTest::millis, "a whole number of milliseconds");

  private static final Setting<Boolean> ON = Setting.bool("on", false).alias("enable_on");

  private static final Setting<String> HOST = Setting.text("host", "0.0.0.0", "HOST");

  private static final SettingsSpec SPEC =
      SettingsSpec.of(PORT, URL, TTL, ON, HOST)
          .refuse("dockerUrl", "modules are not deployed here; register them in discovery")
          .refuseUnless(
              "dockerRegistries", "[{}]", "images are not pulled here", "the default: no registry")
          .note("host", "names deployed modules' host; nothing is deployed here")
          .note("lang", "messages are in English");

  private static Duration millis(String text) {
    try {
      return Duration.ofMillis(Long.parseLong(text.trim()));
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static Settings read(Map<String, String> properties, String... args) {
    return SPEC.read(List.of(args), properties);
  }

  @Test
  void alias_asFlagPropertyOrConf_readByItsOwnRule(@TempDir Path dir) throws IOException {
    assertThat(read(Map.of(), "--okapiurl", "http://gw:9130//").get(URL))
        .isEqualTo("http://gw:9130");
    assertThat(read(Map.of("token_cache_ttl_ms", "1500")).get(TTL))
        .isEqualTo(Duration.ofMillis(1500));
    Path conf = dir.resolve("okapi.json");
    Files.writeString(conf, "{\"http.port\": 9140, \"enable_on\": true}");
    Settings s = read(Map.of(), "-conf", conf.toString());
    assertThat(s.get(PORT)).isEqualTo(9140);
    assertThat(s.get(ON)).isTrue();
  }

  @Test
  void alias_badValue_refusedNamingTheAliasAndItsRule() {
    assertThatThrownBy(() -> read(Map.of("token_cache_ttl_ms", "3m")))
        .hasMessage("token_cache_ttl_ms must be a whole number of milliseconds, was '3m'");
    assertThatThrownBy(() -> read(Map.of("token_cache_ttl_ms", "0")))
        .hasMessage("token_cache_ttl_ms must be between 1ms and 1d, was '0'");
    assertThatThrownBy(() -> read(Map.of("http.port", "70000")))
        .hasMessage("http.port must be between 0 and 65535, was '70000'");
  }

  @Test
  void properties_onlyAliasesRead_emptyOneNotGiven() {
    Settings s = read(Map.of("cache.ttl", "1h", "host", "10.0.0.1", "port", ""));
    assertThat(s.get(TTL)).as("own key as -D: not an alias").isEqualTo(Duration.ofMinutes(3));
    assertThat(s.get(HOST)).as("-Dhost is the noted key, not the setting").isEqualTo("0.0.0.0");
    assertThat(s.get(PORT)).as("empty -Dport is not given, as in Okapi").isEqualTo(9130);
  }

  @Test
  void precedence_flagThenPropertyThenConf_okapisOrderAmongAliases(@TempDir Path dir)
      throws IOException {
    Path conf = dir.resolve("okapi.json");
    Files.writeString(conf, "{\"port\": 9150, \"http.port\": 9151}");
    String file = conf.toString();
    assertThat(read(Map.of(), "-conf", file).get(PORT)).as("conf: http.port first").isEqualTo(9151);
    assertThat(read(Map.of("port", "9160"), "-conf", file).get(PORT)).isEqualTo(9160);
    assertThat(read(Map.of("port", "9160", "http.port", "9161"), "-conf", file).get(PORT))
        .isEqualTo(9161);
    assertThat(read(Map.of("http.port", "9161"), "-conf", file, "--port", "9170").get(PORT))
        .isEqualTo(9170);
  }

  @Test
  void precedence_ownKeyWinsOverAliasInOneSource_theLoserNoted(@TempDir Path dir)
      throws IOException {
    Path conf = dir.resolve("both.json");
    Files.writeString(conf, "{\"okapiurl\": \"http://a:1\", \"okapi-url\": \"http://b:2\"}");
    Settings s = read(Map.of("okapiurl", "http://c:3"), "-conf", conf.toString());
    assertThat(s.get(URL)).as("-D before -conf").isEqualTo("http://c:3");
    assertThat(s.notes())
        .containsExactly(
            "okapi-url (-conf)=http://b:2 is not used: -Dokapiurl=http://c:3 wins",
            "okapiurl (-conf)=http://a:1 is not used: -Dokapiurl=http://c:3 wins");
    Settings flag = read(Map.of("okapiurl", "http://c:3"), "--okapi-url", "http://c:3");
    assertThat(flag.notes()).as("the same value lost nothing").isEmpty();
  }

  @Test
  void refusedKey_anywhere_stopsWithTheReason(@TempDir Path dir) throws IOException {
    assertThatThrownBy(() -> read(Map.of("dockerUrl", "unix:///var/run/docker.sock")))
        .hasMessage("dockerUrl: modules are not deployed here; register them in discovery");
    Path conf = dir.resolve("okapi.json");
    Files.writeString(conf, "{\"dockerUrl\": \"tcp://localhost:4243\"}");
    assertThatThrownBy(() -> read(Map.of(), "-conf", conf.toString()))
        .hasMessageStartingWith("dockerUrl: modules are not deployed here");
    assertThatThrownBy(() -> read(Map.of(), "--dockerUrl", "x"))
        .hasMessageStartingWith("dockerUrl: ");
    assertThat(read(Map.of("dockerUrl", "")).get(PORT)).as("empty: not given").isEqualTo(9130);
  }

  @Test
  void notedKey_accepted_andNoted_unlessItIsTheSettingsOwnKeyThere(@TempDir Path dir)
      throws IOException {
    Settings s = read(Map.of("host", "okapi", "lang", "de"));
    assertThat(s.notes())
        .containsExactly(
            "-Dhost is not used: names deployed modules' host; nothing is deployed here",
            "-Dlang is not used: messages are in English");
    Path conf = dir.resolve("gw.json");
    Files.writeString(conf, "{\"host\": \"127.0.0.1\", \"lang\": \"en\"}");
    Settings fromConf = read(Map.of(), "-conf", conf.toString());
    assertThat(fromConf.get(HOST)).isEqualTo("127.0.0.1");
    assertThat(fromConf.notes()).containsExactly("lang is not used: messages are in English");
  }

  @Test
  void unknownKey_stillRefused_aliasesListedAsKnown_refusedAndNotedKeysNot() {
    assertThatThrownBy(() -> read(Map.of(), "--okapiur", "x"))
        .hasMessageStartingWith("unknown setting 'okapiur'; known settings: ")
        .hasMessageContaining("okapiurl")
        .message()
        .doesNotContain("dockerUrl")
        .doesNotContain(" lang");
  }

  @Test
  void has_andExcept_coverAliases() {
    Settings s = read(Map.of("http.port", "9131"), "--okapiurl", "http://x");
    assertThat(s.has(PORT)).isTrue();
    assertThat(s.has(URL)).isTrue();
    Settings rest = s.except(SettingsSpec.of(URL));
    assertThat(rest.has(URL)).isFalse();
    assertThat(rest.get(PORT)).isEqualTo(9131);
  }

  @Test
  void refusedKeyButForOneValue_thatValueNoted_anyOtherStops(@TempDir Path dir) throws IOException {
    Path conf = dir.resolve("okapi.json");
    Files.writeString(conf, "{\"dockerRegistries\": [ {} ]}");
    assertThat(read(Map.of(), "-conf", conf.toString()).notes())
        .containsExactly("dockerRegistries is not used: the default: no registry");
    Files.writeString(conf, "{\"dockerRegistries\": [{\"username\": \"u\"}]}");
    assertThatThrownBy(() -> read(Map.of(), "-conf", conf.toString()))
        .hasMessage("dockerRegistries: images are not pulled here");
    assertThat(SPEC.aliasMarkdown("key"))
        .contains(
            "| `dockerRegistries` | refused: images are not pulled here; `[{}]` is accepted, not"
                + " used: the default: no registry |");
  }

  @Test
  void spec_aliasOfAnotherSettingsKey_refused() {
    Setting<Integer> other = Setting.integer("http.port", 1, 0, 9);
    assertThatThrownBy(() -> SettingsSpec.of(PORT, other))
        .hasMessageStartingWith("a key is declared twice");
  }

  @Test
  void help_namesTheAliases_andTheirRule() {
    String help = SPEC.help();
    assertThat(help)
        .contains("--port N  (0..65535; default 9130; also http.port, -Dport)")
        .contains("--okapi-url URL  (default none; also okapiurl)");
    Commands commands = Commands.of("x.jar").add("dev", "runs", SPEC, s -> {});
    assertThat(commands.usage()).contains("Names after \"also\" are aliases");
  }

  @Test
  void aliasMarkdown_aliasesThenRefusedThenNoted() {
    assertThat(SPEC.aliasMarkdown("key"))
        .isEqualTo(
            """
            | key | here |
            | --- | --- |
            | `http.port` | `port` |
            | `port` | the same setting |
            | `okapiurl` | `okapi-url` |
            | `token_cache_ttl_ms` | `cache.ttl` |
            | `enable_on` | `on` |
            | `dockerUrl` | refused: modules are not deployed here; register them in discovery |
            | `dockerRegistries` | refused: images are not pulled here; `[{}]` is accepted, not used: \
            the default: no registry |
            | `host` | accepted, not used: names deployed modules' host; nothing is deployed here |
            | `lang` | accepted, not used: messages are in English |
            """);
  }

  @Test
  void commands_propertiesReachTheCommand_commandAfterSettings_unsupportedRefused(@TempDir Path dir)
      throws IOException {
    List<String> ran = new ArrayList<>();
    Commands commands =
        Commands.of("x.jar")
            .add("dev", "runs", SPEC, s -> ran.add(s.get(PORT) + " " + s.notes()))
            .unsupported("deployment", "nothing is deployed here");
    Path conf = dir.resolve("okapi.json");
    Files.writeString(conf, "{\"port\": 9131}");

    Outcome first = commands.execute(List.of("dev"), Map.of("http.port", "9140", "lang", "en"));
    Outcome after = commands.execute(List.of("-conf", conf.toString(), "dev"));
    Outcome deployment = commands.execute(List.of("deployment"));

    assertThat(first.status()).isZero();
    assertThat(after.status()).isZero();
    assertThat(ran)
        .containsExactly("9140 [-Dlang is not used: messages are in English]", "9131 []");
    assertThat(deployment.status()).isEqualTo(Commands.BAD_USAGE);
    assertThat(deployment.err())
        .isEqualTo("command 'deployment' is not supported: nothing is deployed here\n");
    assertThat(commands.names()).containsExactly("dev");
    assertThat(commands.usage()).contains("  deployment (not supported)\n");
    Outcome refused = commands.execute(List.of("dev"), Map.of("dockerUrl", "x"));
    assertThat(refused.status()).isEqualTo(Commands.BAD_USAGE);
    assertThat(refused.err()).startsWith("bad setting: dockerUrl: modules are not deployed here");
  }
}
