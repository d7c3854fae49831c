package io.okapigw.authtoken;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.authtoken.perms.PermissionGraph;
import io.okapigw.authtoken.store.PermissionSetRecord;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The module descriptor matches what the module serves. */
@ExtendWith(VertxExtension.class)
class DescriptorTest {
  private static final Path DESCRIPTOR = Path.of("descriptors", "ModuleDescriptor.json");

  @TempDir Path dir;

  private static JsonObject descriptor() throws Exception {
    return new JsonObject(Files.readString(DESCRIPTOR));
  }

  private static List<JsonObject> handlers(JsonObject descriptor) {
    List<JsonObject> handlers = new ArrayList<>();
    descriptor
        .getJsonArray("provides")
        .forEach(
            i ->
                ((JsonObject) i)
                    .getJsonArray("handlers")
                    .forEach(h -> handlers.add((JsonObject) h)));
    return handlers;
  }

  @Test
  void descriptor_idFilterAndSystemInterface() throws Exception {
    JsonObject d = descriptor();
    assertThat(d.getString("id")).isEqualTo("mod-authtoken-1.0.0");
    assertThat(d.getJsonArray("filters"))
        .containsExactly(
            new JsonObject()
                .put("methods", new JsonArray().add("*"))
                .put("pathPattern", "/*")
                .put("phase", "auth")
                .put("type", "headers"));
    JsonObject tenantPermissions =
        d.getJsonArray("provides").stream()
            .map(JsonObject.class::cast)
            .filter(i -> "_tenantPermissions".equals(i.getString("id")))
            .findFirst()
            .orElseThrow();
    assertThat(tenantPermissions.getString("version")).isEqualTo("2.0");
    assertThat(tenantPermissions.getString("interfaceType")).isEqualTo("system");
  }

  @Test
  void descriptor_everyRequiredPermissionIsDefined_andAuthtokenAllGrantsThemAll() throws Exception {
    JsonObject d = descriptor();
    List<PermissionSetRecord> sets = new ArrayList<>();
    d.getJsonArray("permissionSets")
        .forEach(
            o -> {
              JsonObject s = (JsonObject) o;
              JsonArray subs = s.getJsonArray("subPermissions", new JsonArray());
              sets.add(
                  new PermissionSetRecord(
                      "mod-authtoken-1.0.0",
                      s.getString("permissionName"),
                      subs.stream().map(String.class::cast).toList()));
            });
    Set<String> defined =
        new TreeSet<>(sets.stream().map(PermissionSetRecord::permissionName).toList());
    Set<String> required = new TreeSet<>();
    handlers(d)
        .forEach(h -> h.getJsonArray("permissionsRequired").forEach(p -> required.add((String) p)));
    assertThat(required).isNotEmpty();
    assertThat(defined).containsAll(required);
    assertThat(PermissionGraph.of(sets).closure("authtoken.all")).containsAll(required);
  }

  @Test
  void descriptor_everyHandlerIsServed(Vertx vertx) throws Exception {
    TestModule module = TestModule.deploy(vertx, TestModule.options(dir), MutableClock.ofNow());
    try {
      for (JsonObject handler : handlers(descriptor())) {
        String path = handler.getString("pathPattern").replace("{id}", "some-id");
        for (Object method : handler.getJsonArray("methods")) {
          var response = module.request(TestModule.TENANT).request((String) method, path);
          assertThat(response.statusCode()).as(method + " " + path).isNotIn(405, 500);
          assertThat(response.asString())
              .as(method + " " + path)
              .doesNotContain("no such endpoint");
        }
      }
    } finally {
      module.undeploy();
    }
  }
}
