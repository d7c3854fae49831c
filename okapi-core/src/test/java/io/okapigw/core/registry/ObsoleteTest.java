package io.okapigw.core.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The rule of {@code /_/proxy/cleanup/modules}, with the cases of Okapi 6.1.5's own test of it
 * ({@code ModuleUtilTest.testGetObsoleteBackend}, {@code testGetObsoleteUI}): what each pair of
 * {@code saveReleases}, {@code saveSnapshots} finds obsolete, newest first.
 */
class ObsoleteTest {

  private static final List<ModuleDescriptor> BACKEND =
      modules(
          "mod-a-0.9.0-SNAPSHOT.3",
          "mod-a-1.0.0-SNAPSHOT.4",
          "mod-a-1.0.0",
          "mod-b-1.0.0-SNAPSHOT.1",
          "mod-a-1.1.0-SNAPSHOT.5",
          "mod-a-0.8.0-SNAPSHOT.1",
          "mod-a-0.8.0-SNAPSHOT.2",
          "mod-a-0.8.0");

  private static final List<ModuleDescriptor> UI =
      modules(
          "a-2.3.100078",
          "a-2.3.100079",
          "a-2.3.0",
          "a-2.4.0",
          "a-2.4.10000104",
          "a-2.4.10000105",
          "a-2.4.10000106");

  private static List<ModuleDescriptor> modules(String... ids) {
    return Stream.of(ids)
        .map(id -> ModuleDescriptor.fromJson(new JsonObject().put("id", id)))
        .toList();
  }

  private static List<String> obsolete(
      List<ModuleDescriptor> modules, int releases, int snapshots) {
    return Obsolete.of(modules, releases, snapshots).stream().map(ModuleDescriptor::id).toList();
  }

  @Test
  void backend_asOkapi() {
    assertThat(obsolete(BACKEND, 1, 0))
        .containsExactly(
            "mod-a-1.0.0-SNAPSHOT.4",
            "mod-a-0.9.0-SNAPSHOT.3",
            "mod-a-0.8.0-SNAPSHOT.2",
            "mod-a-0.8.0-SNAPSHOT.1");
    assertThat(obsolete(BACKEND, 0, 0))
        .containsExactly(
            "mod-b-1.0.0-SNAPSHOT.1",
            "mod-a-1.1.0-SNAPSHOT.5",
            "mod-a-1.0.0-SNAPSHOT.4",
            "mod-a-0.9.0-SNAPSHOT.3",
            "mod-a-0.8.0-SNAPSHOT.2",
            "mod-a-0.8.0-SNAPSHOT.1");
    assertThat(obsolete(BACKEND, 0, 1))
        .containsExactly("mod-a-0.9.0-SNAPSHOT.3", "mod-a-0.8.0-SNAPSHOT.1");
    assertThat(obsolete(BACKEND, 0, 2)).isEmpty();
    assertThat(obsolete(BACKEND, 3, 0))
        .containsExactly("mod-a-0.8.0-SNAPSHOT.2", "mod-a-0.8.0-SNAPSHOT.1");
    assertThat(obsolete(BACKEND, 3, 1)).containsExactly("mod-a-0.8.0-SNAPSHOT.1");
  }

  @Test
  void npmSnapshots_asOkapi() {
    assertThat(obsolete(UI, 1, 0)).containsExactly("a-2.3.100079", "a-2.3.100078");
    assertThat(obsolete(UI, 1, 1)).containsExactly("a-2.3.100078");
    assertThat(obsolete(UI, 2, 0)).isEmpty();
  }
}
