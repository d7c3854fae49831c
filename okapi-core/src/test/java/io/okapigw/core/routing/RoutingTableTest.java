package io.okapigw.core.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.okapigw.core.http.HttpError;
import io.okapigw.core.registry.AuthKind;
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
    return ModuleDescriptor.fromJson(
        new JsonObject()
            .put("id", id)
            .put(
                "provides",
                new JsonArray()
                    .add(
                        new JsonObject()
                            .put("id", id + "-itf")
                            .put("version", "1.0")
                            .put("handlers", new JsonArray(List.of((Object[]) handlers))))));
  }

  private static RoutingTable table(ModuleDescriptor... modules) {
    return RoutingTable.compile("diku", AuthKind.OKAPI, List.of(modules), Map.of());
  }

  private static String handlerOf(RoutingTable table, String method, String path) {
    return table
        .match(method, path, null)
        .map(p -> p.handler().moduleId() + " " + p.handler().pathPattern())
        .orElse("none");
  }

  @Test
  void match_literalBeatsParamBeatsWildcard_regardlessOfEnableOrder() {
    RoutingTable t =
        table(
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
    RoutingTable t =
        table(module("any", entry("*", "/loans")), module("post", entry("POST", "/loans")));
    assertThat(handlerOf(t, "POST", "/loans")).isEqualTo("post /loans");
    assertThat(handlerOf(t, "DELETE", "/loans")).isEqualTo("any /loans");
    RoutingTable getOnly = table(module("m", entry("GET", "/loans")));
    assertThat(handlerOf(getOnly, "POST", "/loans")).isEqualTo("none");
  }

  @Test
  void match_patternStartingWithWildcard_foundWhateverTheFirstSegment() {
    RoutingTable t =
        table(
            module("catchall", entry("GET", "/*")),
            module("specific", entry("GET", "/circulation/loans")));
    assertThat(handlerOf(t, "GET", "/circulation/loans")).isEqualTo("specific /circulation/loans");
    assertThat(handlerOf(t, "GET", "/anything/else")).isEqualTo("catchall /*");
  }

  @Test
  void match_regexCharactersInPatternAreLiteral() {
    // '.', '(' and the like are refused at registration (Okapi's rules); '|' is allowed
    RoutingTable t = table(module("m", entry("GET", "/a|b/c")));
    assertThat(handlerOf(t, "GET", "/a|b/c")).isEqualTo("m /a|b/c");
    assertThat(handlerOf(t, "GET", "/a")).isEqualTo("none");
  }

  @Test
  void match_filtersByPhaseAroundHandler_andPermissionUnion() {
    ModuleDescriptor auth =
        ModuleDescriptor.fromJson(
            new JsonObject()
                .put("id", "auth")
                .put(
                    "filters",
                    new JsonArray()
                        .add(entry("*", "/*").put("phase", "auth").put("type", "headers"))
                        .add(
                            entry("*", "/*")
                                .put("phase", "pre")
                                .put("type", "headers")
                                .put("permissionsRequired", new JsonArray().add("pre.perm")))
                        .add(entry("*", "/*").put("phase", "post").put("type", "headers"))));
    ModuleDescriptor items =
        module(
            "items",
            entry("GET", "/items/{id}")
                .put("permissionsRequired", new JsonArray().add("items.get"))
                .put("permissionsDesired", new JsonArray().add("items.extra"))
                .put("modulePermissions", new JsonArray().add("storage.get")));
    Pipeline p = table(auth, items).match("GET", "/items/1", null).orElseThrow();
    assertThat(p.auth()).map(Stage::moduleId).contains("auth");
    assertThat(p.pre()).extracting(Stage::moduleId).containsExactly("auth");
    assertThat(p.post()).extracting(Stage::moduleId).containsExactly("auth");
    assertThat(p.permissionsRequired()).containsExactly("pre.perm", "items.get");
    assertThat(p.permissionsDesired()).containsExactly("items.extra");
    assertThat(p.modulePermissions()).isEqualTo(Map.of("items", List.of("storage.get")));
  }

  @Test
  void match_noHandler_emptyEvenIfFiltersMatch() {
    ModuleDescriptor auth =
        ModuleDescriptor.fromJson(
            new JsonObject()
                .put("id", "auth")
                .put("filters", new JsonArray().add(entry("*", "/*").put("phase", "auth"))));
    assertThat(table(auth).match("GET", "/x", null)).isEmpty();
  }

  @Test
  void match_systemInterfacesNotRouted() {
    ModuleDescriptor m =
        ModuleDescriptor.fromJson(
            new JsonObject()
                .put("id", "m")
                .put(
                    "provides",
                    new JsonArray()
                        .add(
                            new JsonObject()
                                .put("id", "_tenant")
                                .put("version", "2.0")
                                .put("interfaceType", "system")
                                .put(
                                    "handlers", new JsonArray().add(entry("POST", "/_/tenant"))))));
    assertThat(table(m).match("POST", "/_/tenant", null)).isEmpty();
  }

  private static ModuleDescriptor multiple(String id, JsonObject... handlers) {
    return ModuleDescriptor.fromJson(
        new JsonObject()
            .put("id", id)
            .put(
                "provides",
                new JsonArray()
                    .add(
                        new JsonObject()
                            .put("id", "shared")
                            .put("version", "1.0")
                            .put("interfaceType", "multiple")
                            .put("handlers", new JsonArray(List.of((Object[]) handlers))))));
  }

  private static ModuleDescriptor filters(String id, JsonObject... filters) {
    return ModuleDescriptor.fromJson(
        new JsonObject().put("id", id).put("filters", new JsonArray(List.of((Object[]) filters))));
  }

  private static JsonObject redirect(String method, String pattern, String to) {
    return entry(method, pattern)
        .put("phase", "pre")
        .put("type", "redirect")
        .put("redirectPath", to);
  }

  @Test
  void match_multipleInterface_onlyByModuleIdAndModuleIdOnlyReachesIt() {
    RoutingTable t =
        table(
            multiple("a", entry("GET", "/shared")),
            multiple("b", entry("GET", "/shared")),
            module("plain", entry("GET", "/plain")));
    assertThat(t.match("GET", "/shared", null)).isEmpty();
    assertThat(t.match("GET", "/shared", "b").orElseThrow().handler().moduleId()).isEqualTo("b");
    assertThat(t.match("GET", "/shared", "nosuch")).isEmpty();
    assertThat(t.match("GET", "/plain", "plain")).isEmpty();
    assertThat(t.match("GET", "/plain", null)).isPresent();
  }

  @Test
  void cacheRoute_multipleModulesOnOnePattern_neverShareADecision() {
    RoutingTable t =
        table(multiple("a", entry("GET", "/shared")), multiple("b", entry("GET", "/shared")));
    assertThat(t.match("GET", "/shared", "a").orElseThrow().cacheRoute())
        .isNotEqualTo(t.match("GET", "/shared", "b").orElseThrow().cacheRoute());
  }

  @Test
  void cacheRoute_filterWithPermissionsOnSomePaths_separatesThosePaths() {
    RoutingTable t =
        table(
            module("items", entry("GET", "/items/{id}")),
            filters(
                "guard",
                entry("GET", "/items/secret")
                    .put("phase", "pre")
                    .put("permissionsRequired", new JsonArray().add("secret.read"))));
    Pipeline plain = t.match("GET", "/items/1", null).orElseThrow();
    Pipeline guarded = t.match("GET", "/items/secret", null).orElseThrow();
    assertThat(plain.cacheRoute()).isEqualTo("/items/{id}");
    assertThat(guarded.cacheRoute()).isNotEqualTo(plain.cacheRoute());
    assertThat(guarded.permissionsRequired()).containsExactly("secret.read");
  }

  @Test
  void match_redirectFilter_servedByTheTargetsHandlerWithItsPath() {
    RoutingTable t =
        table(
            module("items", entry("GET", "/items/{id}")),
            filters(
                "alias",
                redirect("GET", "/alias*", "/items/1")
                    .put("permissionsRequired", new JsonArray().add("alias.get"))));
    Pipeline p = t.match("GET", "/alias/x", null).orElseThrow();
    assertThat(p.handler().moduleId()).isEqualTo("items");
    assertThat(p.handlerPath()).isEqualTo("/items/1");
    assertThat(p.redirects()).extracting(Stage::moduleId).containsExactly("alias");
    assertThat(p.permissionsRequired()).containsExactly("alias.get");
    assertThat(p.cacheRoute())
        .isNotEqualTo(t.match("GET", "/items/1", null).orElseThrow().cacheRoute());
  }

  @Test
  void match_redirectHandlerWithLegacyPath_keepsTheRestOfThePath() {
    RoutingTable t =
        table(
            module("items", entry("GET", "/items/{id}")),
            module(
                "old",
                new JsonObject()
                    .put("methods", new JsonArray().add("GET"))
                    .put("path", "/legacy")
                    .put("type", "redirect")
                    .put("redirectPath", "/items")));
    assertThat(t.match("GET", "/legacy/9", null).orElseThrow().handlerPath()).isEqualTo("/items/9");
  }

  @Test
  void match_filtersWithoutPhase_placedByOkapisLevel_beforeOrAfterTheHandler() {
    RoutingTable t =
        table(
            module("items", entry("GET", "/items/{id}")),
            filters(
                "legacy",
                entry("GET", "/items/*").put("level", "45").put("type", "headers"),
                entry("GET", "/items/*").put("level", "70").put("type", "headers"),
                entry("GET", "/items/*").put("type", "headers")));
    Pipeline p = t.match("GET", "/items/1", null).orElseThrow();
    assertThat(p.auth()).isEmpty();
    assertThat(p.pre()).extracting(s -> s.entry().phase()).containsExactly("pre", "pre");
    assertThat(p.post()).extracting(s -> s.entry().phase()).containsExactly("post");
  }

  @Test
  void match_redirectFilterWithLevel_asOkapisTestHeaderModule_servedByTheTarget() {
    RoutingTable t =
        table(
            module(
                "sample",
                new JsonObject().put("methods", new JsonArray().add("GET")).put("path", "/testr")),
            filters(
                "header",
                new JsonObject()
                    .put("methods", new JsonArray().add("GET"))
                    .put("path", "/red")
                    .put("level", "21")
                    .put("type", "redirect")
                    .put("redirectPath", "/testr")));
    Pipeline p = t.match("GET", "/red", null).orElseThrow();
    assertThat(p.handler().moduleId()).isEqualTo("sample");
    assertThat(p.handlerPath()).isEqualTo("/testr");
  }

  @Test
  void match_redirectToARelativePath_500AsOkapiNamesIt() {
    RoutingTable t =
        table(
            module("sample", entry("GET", "/testr")),
            module(
                "hop", entry("GET", "/hop").put("type", "redirect").put("redirectPath", "testr")));
    assertThatThrownBy(() -> t.match("GET", "/hop", null))
        .isInstanceOf(HttpError.class)
        .hasMessage("Redirecting /hop to testr FAILED. No suitable module found");
  }

  @Test
  void match_redirectLoopOrNowhere_500NamingIt() {
    RoutingTable t =
        table(
            filters(
                "r",
                redirect("GET", "/a", "/b"),
                redirect("GET", "/b", "/a"),
                redirect("GET", "/c", "/nowhere")));
    assertThatThrownBy(() -> t.match("GET", "/a", null))
        .isInstanceOf(HttpError.class)
        .hasMessageContaining("Redirect loop");
    assertThatThrownBy(() -> t.match("GET", "/c", null))
        .isInstanceOf(HttpError.class)
        .hasMessage("Redirecting /c to /nowhere FAILED. No suitable module found");
  }

  @Test
  void modulePermissions_asSystemSetNames_whenTenantPermissionsIsNewerThan10() {
    ModuleDescriptor perms =
        ModuleDescriptor.fromJson(
            new JsonObject()
                .put("id", "perms")
                .put(
                    "provides",
                    new JsonArray()
                        .add(
                            new JsonObject()
                                .put("id", "_tenantPermissions")
                                .put("version", "2.0")
                                .put("interfaceType", "system")
                                .put(
                                    "handlers",
                                    new JsonArray().add(entry("POST", "/_/tenantPermissions"))))));
    ModuleDescriptor items =
        module(
            "items",
            entry("GET", "/items/{id}")
                .put("modulePermissions", new JsonArray().add("storage.get")));
    assertThat(table(items).match("GET", "/items/1", null).orElseThrow().modulePermissions())
        .isEqualTo(Map.of("items", List.of("storage.get")));
    assertThat(table(items, perms).match("GET", "/items/1", null).orElseThrow().modulePermissions())
        .isEqualTo(Map.of("items", List.of("SYS#items#/items/{id}#[GET]")));
  }

  @Test
  void instances_roundRobin() {
    Instances instances = new Instances("m", List.of("http://a", "http://b"));
    assertThat(
            List.of(
                instances.next().orElseThrow().url(),
                instances.next().orElseThrow().url(),
                instances.next().orElseThrow().url()))
        .containsExactly("http://a", "http://b", "http://a");
    assertThat(new Instances("m", List.of()).next()).isEmpty();
  }
}
