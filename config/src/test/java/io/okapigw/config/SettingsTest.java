package io.okapigw.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The one rule set for setting texts, and how flags and the conf file combine. */
class SettingsTest {

  private static final Setting<Duration> TIMEOUT =
      Setting.duration("x.timeout", Duration.ofSeconds(5), Duration.ZERO, Duration.ofDays(2));
  private static final Setting<Long> BODY = Setting.size("x.body", 1024, 1, 8L << 30);
  private static final Setting<Boolean> ON = Setting.bool("x.on", false);
  private static final Setting<Integer> COUNT = Setting.integer("x.count", 4, 1, 256);

  enum Mode {
    OFF,
    SAFE,
    VERY_SAFE
  }

  private static final Setting<Mode> MODE = Setting.choice("x.mode", Mode.OFF);
  private static final Setting<String> STORE =
      Setting.text("x.store", "mem", "STORE")
          .check(s -> s.equals("mem") || s.startsWith("pg://"), "mem or pg://HOST");
  private static final Setting<String> USER = Setting.text("x.user", null, "USER").repeatable();
  private static final Setting<List<Integer>> USERS =
      Setting.integers("x.users", List.of(8), 1, 1000);
  private static final Setting<List<Long>> SIZES =
      Setting.sizes("x.sizes", List.of(1024L, 16384L), 1, 4L << 30);

  private static <T> T read(Setting<T> setting, String text) {
    return Settings.of(Map.of(setting.key(), text)).get(setting);
  }

  @ParameterizedTest
  @CsvSource({
    "500ms, PT0.5S",
    "30s, PT30S",
    "3m, PT3M",
    "1h, PT1H",
    "1d, PT24H",
    "0, PT0S",
    "' 2D ', PT48H",
    "10 s, PT10S"
  })
  void duration_numberAndUnit_read(String text, Duration expected) {
    assertThat(read(TIMEOUT, text)).isEqualTo(expected);
  }

  @ParameterizedTest
  @ValueSource(strings = {"300", "1.5s", "PT10M", "-1s", "10 minutes", "s", ""})
  void duration_bareNumberOrOtherForm_refusedNamingKeyRuleAndText(String text) {
    assertThatThrownBy(() -> read(TIMEOUT, text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "x.timeout must be a duration: a whole number and a unit ms, s, m, h or d, such as"
                + " 500ms, 30s, 3m, 1h, 1d (0 needs no unit), was '"
                + text
                + "'");
  }

  @Test
  void duration_outOfRange_refusedNamingTheRange() {
    assertThatThrownBy(() -> read(TIMEOUT, "3d"))
        .hasMessage("x.timeout must be between 0 and 2d, was '3d'");
  }

  @ParameterizedTest
  @CsvSource({
    "512, 512",
    "64KB, 65536",
    "64KiB, 65536",
    "64kb, 65536",
    "1MB, 1048576",
    "1MiB, 1048576",
    "1GB, 1073741824",
    "2GiB, 2147483648",
    "7B, 7"
  })
  void size_bytesOrBinaryUnit_read(String text, long expected) {
    assertThat(read(BODY, text)).isEqualTo(expected);
  }

  @ParameterizedTest
  @ValueSource(strings = {"1TB", "1.5MB", "1K", "lots", "-1"})
  void size_otherForm_refusedNamingKey(String text) {
    assertThatThrownBy(() -> read(BODY, text))
        .hasMessageStartingWith("x.body must be a size: a whole number of bytes")
        .hasMessageEndingWith(", was '" + text + "'");
  }

  @Test
  void size_outOfRange_refusedInUnits() {
    assertThatThrownBy(() -> read(BODY, "9GB"))
        .hasMessage("x.body must be between 1 and 8GB, was '9GB'");
  }

  @ParameterizedTest
  @CsvSource({
    "true, true", "yes, true", "on, true", "ON, true",
    "false, false", "no, false", "off, false", "Off, false"
  })
  void bool_sixWords_read(String text, boolean expected) {
    assertThat(read(ON, text)).isEqualTo(expected);
  }

  @Test
  void integers_commaSeparated_readInOrder() {
    assertThat(read(USERS, "1,8,32")).containsExactly(1, 8, 32);
    assertThat(read(USERS, " 5 ")).containsExactly(5);
    assertThat(read(USERS, "1, 8 ,32")).containsExactly(1, 8, 32);
  }

  @ParameterizedTest
  @ValueSource(strings = {"8,x", "1,,2", "8,", "", "1.5"})
  void integers_itemNotAWholeNumber_refusedNamingKeyAndList(String text) {
    assertThatThrownBy(() -> read(USERS, text))
        .hasMessage(
            "x.users must be whole numbers separated by commas, such as 1,8,32, was '"
                + text
                + "'");
  }

  @Test
  void integers_itemOutOfRange_refusedNamingTheRange() {
    assertThatThrownBy(() -> read(USERS, "1,0"))
        .hasMessage("x.users must be between 1 and 1000 each, was '1,0'");
  }

  @Test
  void sizes_eachReadByTheSizeRule() {
    assertThat(read(SIZES, "1KB,16MB,512,2GiB")).containsExactly(1024L, 16L << 20, 512L, 2L << 30);
    assertThatThrownBy(() -> read(SIZES, "1KB,big"))
        .hasMessageStartingWith("x.sizes must be sizes separated by commas, such as 1KB,16MB")
        .hasMessageEndingWith(", was '1KB,big'");
    assertThatThrownBy(() -> read(SIZES, "1KB,5GB"))
        .hasMessage("x.sizes must be between 1 and 4GB each, was '1KB,5GB'");
  }

  @Test
  void lists_formatAsTheyAreWritten() {
    assertThat(SIZES.format(List.of(1024L, 256L << 20, 1000L))).isEqualTo("1KB,256MB,1000");
    assertThat(USERS.format(List.of(1, 8))).isEqualTo("1,8");
  }

  @Test
  void bool_otherWord_refused() {
    assertThatThrownBy(() -> read(ON, "1"))
        .hasMessage("x.on must be true or false (also yes/no, on/off), was '1'");
  }

  @Test
  void integer_inRange_readElseRefused() {
    assertThat(read(COUNT, " 256 ")).isEqualTo(256);
    assertThatThrownBy(() -> read(COUNT, "0"))
        .hasMessage("x.count must be between 1 and 256, was '0'");
    assertThatThrownBy(() -> read(COUNT, "four"))
        .hasMessage("x.count must be a whole number, was 'four'");
  }

  @Test
  void choice_lowerCaseName_readElseRefusedListingTheChoices() {
    assertThat(read(MODE, "Safe")).isEqualTo(Mode.SAFE);
    assertThat(read(MODE, "very-safe")).isEqualTo(Mode.VERY_SAFE);
    assertThatThrownBy(() -> read(MODE, "fast"))
        .hasMessage("x.mode must be one of off, safe, very-safe, was 'fast'");
  }

  @Test
  void text_checked_refusedWithTheRule() {
    assertThat(read(STORE, "pg://db")).isEqualTo("pg://db");
    assertThatThrownBy(() -> read(STORE, "mysql://db"))
        .hasMessage("x.store must be mem or pg://HOST, was 'mysql://db'");
  }

  @Test
  void check_valueSetInCode_refusedLikeAText() {
    assertThat(TIMEOUT.check(Duration.ofHours(1))).isEqualTo(Duration.ofHours(1));
    assertThatThrownBy(() -> TIMEOUT.check(Duration.ofDays(3)))
        .hasMessage("x.timeout must be between 0 and 2d, was '3d'");
    assertThatThrownBy(() -> TIMEOUT.check(null)).hasMessageStartingWith("x.timeout must be");
  }

  @Test
  void get_notGiven_default() {
    Settings none = Settings.of(Map.of());
    assertThat(none.get(TIMEOUT)).isEqualTo(Duration.ofSeconds(5));
    assertThat(none.get(USER)).isNull();
    assertThat(none.getAll(USER)).isEmpty();
  }

  @Test
  void fromArgs_spaceOrEqualsOneOrTwoDashes_lastFlagWins() {
    Settings s =
        Settings.fromArgs(List.of("--x.count", "3", "-x.on=yes", "--x.timeout=1m", "--x.count=5"));
    assertThat(s.get(COUNT)).isEqualTo(5);
    assertThat(s.get(ON)).isTrue();
    assertThat(s.get(TIMEOUT)).isEqualTo(Duration.ofMinutes(1));
  }

  @Test
  void fromArgs_repeatable_everyValueInOrder() {
    Settings s = Settings.fromArgs(List.of("--x.user", "a", "--x.user=b"));
    assertThat(s.getAll(USER)).containsExactly("a", "b");
  }

  @Test
  void fromArgs_flagWithoutValueOrStrayArgument_refused() {
    assertThatThrownBy(() -> Settings.fromArgs(List.of("--x.count")))
        .hasMessage("x.count needs a value: --x.count VALUE");
    assertThatThrownBy(() -> Settings.fromArgs(List.of("8081")))
        .hasMessage("unexpected argument '8081'");
  }

  @Test
  void fromArgs_conf_readFlagsWin(@TempDir Path dir) throws IOException {
    Path conf = dir.resolve("conf.json");
    Files.writeString(
        conf,
        """
        {"x.count": 7, "x.on": true, "x.timeout": "2h", "x.user": ["a", "b"]}
        """);
    Settings s = Settings.fromArgs(List.of("--x.timeout", "3m", "-conf", conf.toString()));
    assertThat(s.get(COUNT)).isEqualTo(7);
    assertThat(s.get(ON)).isTrue();
    assertThat(s.get(TIMEOUT)).isEqualTo(Duration.ofMinutes(3));
    assertThat(s.getAll(USER)).containsExactly("a", "b");
    Settings flag = Settings.fromArgs(List.of("-conf", conf.toString(), "--x.user", "c"));
    assertThat(flag.getAll(USER)).containsExactly("c");
  }

  @Test
  void fromArgs_confValueBadByTheRules_refusedNamingTheKey(@TempDir Path dir) throws IOException {
    Path conf = dir.resolve("conf.json");
    Files.writeString(conf, "{\"x.timeout\": 180}");
    Settings s = Settings.fromArgs(List.of("-conf", conf.toString()));
    assertThatThrownBy(() -> s.get(TIMEOUT)).hasMessageStartingWith("x.timeout must be a duration");
  }

  @Test
  void fromArgs_badConf_refusedNamingTheFile(@TempDir Path dir) throws IOException {
    Path conf = dir.resolve("conf.json");
    Files.writeString(conf, "[1]");
    assertThatThrownBy(() -> Settings.fromArgs(List.of("-conf", conf.toString())))
        .hasMessage("conf: " + conf + " is not a JSON object");
    Files.writeString(conf, "{\"x.count\": {\"a\": 1}}");
    Settings structured = Settings.fromArgs(List.of("-conf", conf.toString()));
    assertThatThrownBy(() -> structured.get(COUNT))
        .hasMessage("x.count must be a string, number or boolean, was '{\"a\":1}'");
    Files.writeString(conf, "{\"x.count\": null}");
    assertThatThrownBy(() -> Settings.fromArgs(List.of("-conf", conf.toString())))
        .hasMessageStartingWith("x.count must be a string, number or boolean");
    assertThatThrownBy(() -> Settings.fromArgs(List.of("-conf", dir.resolve("no").toString())))
        .hasMessageStartingWith("conf: cannot read");
  }

  @Test
  void checkKnown_unknownKey_refusedListingTheKnown() {
    Settings s = Settings.fromArgs(List.of("--x.cuont", "3"));
    assertThatThrownBy(() -> s.checkKnown(Set.of("x.count", "x.on")))
        .hasMessage("unknown setting 'x.cuont'; known settings: x.count, x.on");
  }

  @Test
  void has_givenAsFlagOrInConf_notByDefault() {
    Settings s = Settings.fromArgs(List.of("--x.count", "3"));
    assertThat(s.has(COUNT)).isTrue();
    assertThat(s.has(ON)).isFalse();
  }

  @Test
  void spec_read_booleanFlagAlone_meansTrue() {
    SettingsSpec spec = SettingsSpec.of(COUNT, ON);
    assertThat(spec.read(List.of("--x.on")).get(ON)).isTrue();
    Settings before = spec.read(List.of("--x.on", "--x.count", "2"));
    assertThat(before.get(ON)).isTrue();
    assertThat(before.get(COUNT)).isEqualTo(2);
    assertThat(spec.read(List.of("--x.on", "off")).get(ON)).isFalse();
    assertThatThrownBy(() -> spec.read(List.of("--x.on", "maybe")).get(ON))
        .hasMessageStartingWith("x.on must be true or false");
    assertThatThrownBy(() -> spec.read(List.of("--x.count")))
        .hasMessage("x.count needs a value: --x.count VALUE");
  }

  @Test
  void spec_read_badValue_refusedAtOnce_evenOfASettingReadLater() {
    SettingsSpec spec = SettingsSpec.of(COUNT, USER);
    assertThatThrownBy(() -> spec.read(List.of("--x.count", "0")))
        .hasMessage("x.count must be between 1 and 256, was '0'");
    assertThat(spec.read(List.of("--x.user", "a", "--x.user", "b")).getAll(USER))
        .containsExactly("a", "b");
  }

  @Test
  void spec_read_refusesUnknownKeys() {
    SettingsSpec spec = SettingsSpec.of(COUNT, ON);
    assertThat(spec.read(List.of("--x.count", "2")).get(COUNT)).isEqualTo(2);
    assertThatThrownBy(() -> spec.read(List.of("--x.timeout", "2s")))
        .hasMessageStartingWith("unknown setting 'x.timeout'");
  }
}
