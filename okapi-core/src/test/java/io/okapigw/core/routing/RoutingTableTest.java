package io.okapigw.core.routing;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.core.registry.ModuleDescriptor;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RoutingTableTest {

  private static JsonObject entry(String method, String pattern) {
    return new JsonObject().put("methods", new JsonArray().add(method)).put("pathPattern", pattern);
  }

  private static ModuleDescriptor module(String id, JsonObject... handlers) {
    return ModuleDescriptor.fromJson(new JsonObject().put("id", id).put("provides",
        new JsonArray().add(new JsonObject().put("id", id + "-itf").put("version", "1.0")
            .put("handlers", new JsonArray(List.of((Object[]) handlers))))));
  }

  private static RoutingTable table(ModuleDescriptor... modules) {
    return RoutingTable.compile(List.of(modules), Map.of());
  }

  private static String handlerOf(RoutingTable table, String method, String path) {
    return table.match(method, path)
        .map(p -> p.handler().moduleId() + " " + p.handler().pathPattern())
        .orElse("none");
  }

  @Test
  void match_literalBeatsParamBeatsWildcard_regardlessOfEnableOrder() {
    RoutingTable t = table(
        module("wild", entry("GET", "/items*")),
        module("param", entry("GET", "/items/{id}")),
        module("literal", entry("GET", "/items/special")));
    assertThat(handlerOf(t, "GET", "/items/special")).isEqualTo("literal /items/special");
    assertThat(handlerOf(t, "GET", "/items/42")).isEqualTo("param /items/{id}");
    assertThat(handlerOf(t, "GET", "/items/42/holdings")).isEqualTo("wild /items*");
    assertThat(handlerOf(t, "GET", "/items")).isEqualTo("wild /items*");
  }

  @Test
  void match_paramMatchesOneSegmentOnly() {
    RoutingTable t = table(module("m", entry("GET", "/users/{id}")));
    assertThat(handlerOf(t, "GET", "/users/abc")).isEqualTo("m /users/{id}");
    assertThat(handlerOf(t, "GET", "/users/abc/def")).isEqualTo("none");
    assertThat(handlerOf(t, "GET", "/users/")).isEqualTo("none");
  }

  @Test
  void match_explicitMethodBeatsStarAndWrongMethodMisses() {
    RoutingTable t = table(
        module("any", entry("*", "/loans")),
        module("post", entry("POST", "/loans")));
    assertThat(handlerOf(t, "POST", "/loans")).isEqualTo("post /loans");
    assertThat(handlerOf(t, "DELETE", "/loans")).isEqualTo("any /loans");
    RoutingTable getOnly = table(module("m", entry("GET", "/loans")));
    assertThat(handlerOf(getOnly, "POST", "/loans")).isEqualTo("none");
  }

  @Test
  void match_patternStartingWithWildcard_foundWhateverTheFirstSegment() {
    RoutingTable t = table(
        module("catchall", entry("GET", "/*")),
        module("specific", entry("GET", "/circulation/loans")));
    assertThat(handlerOf(t, "GET", "/circulation/loans")).isEqualTo("specific /circulation/loans");
    assertThat(handlerOf(t, "GET", "/anything/else")).isEqualTo("catchall /*");
  }

  @Test
  void match_regexCharactersInPatternAreLiteral() {
    RoutingTable t = table(module("m", entry("GET", "/a.b/(c)")));
    assertThat(handlerOf(t, "GET", "/a.b/(c)")).isEqualTo("m /a.b/(c)");
    assertThat(handlerOf(t, "GET", "/axb/(c)")).isEqualTo("none");
  }

  @Test
  void match_filtersByPhaseAroundHandler_andPermissionUnion() {
    ModuleDescriptor auth = ModuleDescriptor.fromJson(new JsonObject().put("id", "auth")
        .put("filters", new JsonArray()
            .add(entry("*", "/*").put("phase", "auth").put("type", "headers"))
            .add(entry("*", "/*").put("phase", "pre").put("type", "headers")
                .put("permissionsRequired", new JsonArray().add("pre.perm")))
            .add(entry("*", "/*").put("phase", "post").put("type", "headers"))));
    ModuleDescriptor items = module("items", entry("GET", "/items/{id}")
        .put("permissionsRequired", new JsonArray().add("items.get"))
        .put("permissionsDesired", new JsonArray().add("items.extra"))
        .put("modulePermissions", new JsonArray().add("storage.get")));
    Pipeline p = table(auth, items).match("GET", "/items/1").orElseThrow();
    assertThat(p.auth()).map(Stage::moduleId).contains("auth");
    assertThat(p.pre()).extracting(Stage::moduleId).containsExactly("auth");
    assertThat(p.post()).extracting(Stage::moduleId).containsExactly("auth");
    assertThat(p.permissionsRequired()).containsExactly("pre.perm", "items.get");
    assertThat(p.permissionsDesired()).containsExactly("items.extra");
    assertThat(p.modulePermissions()).isEqualTo(Map.of("items", List.of("storage.get")));
  }

  @Test
  void match_noHandler_emptyEvenIfFiltersMatch() {
    ModuleDescriptor auth = ModuleDescriptor.fromJson(new JsonObject().put("id", "auth")
        .put("filters", new JsonArray().add(entry("*", "/*").put("phase", "auth"))));
    assertThat(table(auth).match("GET", "/x")).isEmpty();
  }

  @Test
  void match_systemInterfacesNotRouted() {
    ModuleDescriptor m = ModuleDescriptor.fromJson(new JsonObject().put("id", "m")
        .put("provides", new JsonArray().add(new JsonObject().put("id", "_tenant")
            .put("version", "2.0").put("interfaceType", "system")
            .put("handlers", new JsonArray().add(entry("POST", "/_/tenant"))))));
    assertThat(table(m).match("POST", "/_/tenant")).isEmpty();
  }

  @Test
  void instances_roundRobin() {
    Instances instances = new Instances("m", List.of("http://a", "http://b"));
    assertThat(List.of(instances.next().orElseThrow().url(), instances.next().orElseThrow().url(),
        instances.next().orElseThrow().url())).containsExactly("http://a", "http://b", "http://a");
    assertThat(new Instances("m", List.of()).next()).isEmpty();
  }
}
