package io.okapigw.perf.registryscale;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.core.registry.ModuleDescriptor;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** The benchmark's descriptors: mod-circulation's size, ids and paths of their own, accepted. */
class ScaleDescriptorsTest {

  private static final Path TEMPLATE =
      Path.of("../../shared/folio/mod-circulation.ModuleDescriptor-template.json");

  @Test
  void sixtyDescriptors_eachMod_circulationsSize_ownIdsAndPaths_accepted() throws Exception {
    Path template =
        Files.exists(TEMPLATE)
            ? TEMPLATE
            : Path.of("/work/shared/folio", TEMPLATE.getFileName().toString());
    Assumptions.assumeTrue(
        Files.exists(template), "mod-circulation's descriptor template not found at " + TEMPLATE);

    List<JsonObject> all = ScaleDescriptors.of(template, 60);

    Set<String> ids = new HashSet<>();
    Set<String> paths = new HashSet<>();
    for (JsonObject d : all) {
      ids.add(d.getString("id"));
      int handlers = 0;
      for (Object p : d.getJsonArray("provides")) {
        JsonObject in = (JsonObject) p;
        for (Object h : in.getJsonArray("handlers")) {
          handlers++;
          String path = ((JsonObject) h).getString("pathPattern");
          if (!path.startsWith("/_/")) {
            assertThat(paths.add(path + " " + ((JsonObject) h).getJsonArray("methods")))
                .as(path)
                .isTrue();
          }
        }
      }
      assertThat(handlers).isEqualTo(74);
      assertThat(d.getJsonArray("permissionSets")).hasSize(104);
      assertThat(d.containsKey("requires")).isFalse();
      assertThat(ModuleDescriptor.fromPosted(d.copy()).id()).isEqualTo(d.getString("id"));
    }
    assertThat(ids).hasSize(60).contains(ScaleDescriptors.id(0), ScaleDescriptors.id(59));
    assertThat(paths).contains(ScaleDescriptors.probePath(59) + " [\"GET\"]");
  }
}
