package io.okapigw.core.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Module ids and interface versions are read, ordered and matched as Okapi 6.1.5 does. */
class ModuleIdTest {

  @ParameterizedTest
  @CsvSource({
    "mod-users-19.2.0, mod-users, 19.2.0",
    "mod-users-19.2.0-SNAPSHOT.7, mod-users, 19.2.0-SNAPSHOT.7",
    "folio_users-1.0.0+abc, folio_users, 1.0.0+abc",
    "mod-x-1, mod-x, 1",
    "mod-a-b-2.0.0, mod-a-b, 2.0.0",
    "mod-users, mod-users, ''",
  })
  void parse_productThenVersionFromFirstDashDigit(String id, String product, String version) {
    ModuleId parsed = ModuleId.parse(id);
    assertThat(parsed.product()).isEqualTo(product);
    assertThat(parsed.version().map(SemVer::toString).orElse("")).isEqualTo(version);
  }

  @ParameterizedTest
  @CsvSource({
    "mod-foo-1.x, missing version component",
    "mod-foo-1.0.0x, invalid semver: 1.0.0x",
    "mod-foo-1.0.0-, missing pre-release version component",
    "mod-foo-1234567890123456789.0, at most 18 digits",
  })
  void parse_badVersion_failsInOkapisWords(String id, String problem) {
    assertThatThrownBy(() -> ModuleId.parse(id))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(problem);
    assertThat(ModuleId.lenient(id).hasVersion()).isFalse();
  }

  @Test
  void compareTo_semanticOrderReleaseAfterPreRelease() {
    List<String> ids =
        List.of(
            "mod-a-1.0.0",
            "mod-a-1.0.0-SNAPSHOT.2",
            "mod-a-1.0.0-SNAPSHOT.10",
            "mod-a-1.9.0",
            "mod-a-1.10.0",
            "mod-a-10.0.0",
            "mod-a-2.0.0",
            "mod-a",
            "mod-b-0.1.0");
    List<ModuleId> sorted = new ArrayList<>(ids.stream().map(ModuleId::parse).toList());
    Collections.shuffle(sorted, new java.util.Random(7));
    Collections.sort(sorted);
    assertThat(sorted.stream().map(ModuleId::id))
        .containsExactly(
            "mod-a",
            "mod-a-1.0.0-SNAPSHOT.2",
            "mod-a-1.0.0-SNAPSHOT.10",
            "mod-a-1.0.0",
            "mod-a-1.9.0",
            "mod-a-1.10.0",
            "mod-a-2.0.0",
            "mod-a-10.0.0",
            "mod-b-0.1.0");
  }

  @Test
  void compareTo_levelsAsOkapi() {
    assertThat(ModuleId.parse("mod-b-1.0.0").compareTo(ModuleId.parse("mod-a-9.0.0"))).isEqualTo(5);
    assertThat(ModuleId.parse("mod-a-2.0.0").compareTo(ModuleId.parse("mod-a-1.9.0"))).isEqualTo(4);
    assertThat(ModuleId.parse("mod-a-1.1.0").compareTo(ModuleId.parse("mod-a-1.2.0")))
        .isEqualTo(-3);
    assertThat(ModuleId.parse("mod-a-1.1.1").compareTo(ModuleId.parse("mod-a-1.1.0"))).isEqualTo(2);
    assertThat(ModuleId.parse("mod-a-1.1.0-SNAPSHOT").compareTo(ModuleId.parse("mod-a-1.1.0")))
        .isEqualTo(-1);
  }

  @ParameterizedTest
  @CsvSource({
    "mod-users-19.2.0, mod-users, true",
    "mod-users-19.2.0, mod-users-19, true",
    "mod-users-19.2.0, mod-users-19.2, true",
    "mod-users-19.2.0, mod-users-19.3, false",
    "mod-users-19.2.0, mod-user, false",
    "mod-users-19.2.0-SNAPSHOT.1, mod-users-19.2.0, true",
    "mod-users-19.2.0, mod-users-19.2.0-SNAPSHOT, false",
  })
  void matches_productAndVersionPrefix(String id, String filter, boolean matches) {
    assertThat(ModuleId.parse(id).matches(ModuleId.parse(filter))).isEqualTo(matches);
  }

  @Test
  void preReleaseAndNpmSnapshot_recognisedAsOkapi() {
    assertThat(ModuleId.parse("mod-a-1.0.0-SNAPSHOT").isPreRelease()).isTrue();
    assertThat(ModuleId.parse("folio_a-1.2.100012").isNpmSnapshot()).isTrue();
    assertThat(ModuleId.parse("folio_a-1.2.1000").isNpmSnapshot()).isFalse();
  }

  @ParameterizedTest
  @CsvSource({
    "15.1, 15.0, true",
    "15.0, 15.0, true",
    "16.0, 15.0, false",
    "14.9, 15.0, false",
    "15.0.2, 15.0, true",
    "15.0, 15.0.1, false",
    "15.0.1, 15.0.1, true",
    "15.1, 14.2 15.0 16.0, true",
  })
  void isSatisfiedBy_sameMajorAndHigherMinorOrPatch(
      String provided, String required, boolean satisfied) {
    assertThat(new InterfaceReference("users", required).isSatisfiedBy(provided))
        .isEqualTo(satisfied);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "1.0|true",
        "1.0.0|true",
        "1.0 2.0|true",
        "1.0 |true",
        "1|false",
        "1.0.0.0|false",
        "a.b|false",
        "' 1.0'|false",
        // Okapi 6.1.5 takes a descriptor whose later versions do not parse (it reads the first)
        "1.0 x|true",
        "x 1.0|false",
        "-1.0|false"
      })
  void parseAll_okapisVersionSyntax(String version, boolean valid) {
    assertThat(InterfaceVersion.parseAll(version).isEmpty()).isNotEqualTo(valid);
  }
}
