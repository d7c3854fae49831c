package io.okapigw.core.install;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.okapigw.core.http.HttpError;
import io.okapigw.core.install.PlanEntry.Action;
import io.okapigw.core.registry.ModuleDescriptor;
import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Plans on small descriptor graphs. Every expected plan here is what Okapi 6.1.5 answered to the
 * same request on the same modules (install with {@code simulate=true}, side by side).
 */
class DependencyResolverTest {

  private static final Map<String, PlanModule> ALL = new HashMap<>();

  static {
    Stream.of(
            module("mod-a-1.0.0", "a", "1.0"),
            module("mod-a-1.1.0", "a", "1.1"),
            module("mod-a-2.0.0", "a", "2.0"),
            module("mod-a-1.2.0-SNAPSHOT.5", "a", "1.2"),
            module("mod-b-1.0.0", "b", "1.0", "a", "1.0"),
            module("mod-c-1.0.0", "c", "1.0", "b", "1.0"),
            module("mod-d-1.0.0", "d", "1.0"),
            module("mod-e-1.0.0", "e", "1.0"),
            module("mod-x-1.0.0", "x", "1.0", "nothere", "1.0"))
        .forEach(m -> ALL.put(m.id(), m));
  }

  /** A module providing one interface and requiring at most one. */
  static PlanModule module(String id, String provides, String version, String... requires) {
    JsonObject json =
        new JsonObject()
            .put("id", id)
            .put(
                "provides",
                new JsonArray().add(new JsonObject().put("id", provides).put("version", version)));
    JsonArray required = new JsonArray();
    for (int i = 0; i < requires.length; i += 2) {
      required.add(new JsonObject().put("id", requires[i]).put("version", requires[i + 1]));
    }
    return PlanModule.of(ModuleDescriptor.fromJson(json.put("requires", required)));
  }

  private static Map<String, PlanModule> available(String query) {
    InstallOptions options = InstallOptions.from(params(query));
    Map<String, PlanModule> available = new HashMap<>(ALL.size());
    ALL.values().stream()
        .filter(m -> options.considers(m.id()))
        .forEach(m -> available.put(m.id(), m));
    return available;
  }

  private static MultiMap params(String query) {
    MultiMap params = MultiMap.caseInsensitiveMultiMap();
    for (String kv : query.isEmpty() ? new String[0] : query.split("&")) {
      params.add(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
    }
    return params;
  }

  private static Map<String, PlanModule> enabled(String... ids) {
    Map<String, PlanModule> enabled = new HashMap<>();
    for (String id : ids) {
      enabled.put(id, ALL.get(id));
    }
    return enabled;
  }

  private static List<PlanEntry> request(Object... idAndAction) {
    List<PlanEntry> plan = new ArrayList<>();
    for (int i = 0; i < idAndAction.length; i += 2) {
      plan.add(new PlanEntry((String) idAndAction[i], null, (Action) idAndAction[i + 1]));
    }
    return plan;
  }

  private static List<String> resolve(
      String query, Map<String, PlanModule> enabled, List<PlanEntry> plan) {
    DependencyResolver.resolve(available(query), enabled, plan, query.contains("reinstall=true"));
    return plan.stream()
        .map(e -> e.action().json() + " " + e.id() + (e.from() == null ? "" : " from " + e.from()))
        .toList();
  }

  @Test
  void productId_newestIncludingPreReleases_requiredInterfacesPullInTheirProviders() {
    assertThat(resolve("", enabled(), request("mod-c", Action.ENABLE)))
        .containsExactly(
            "enable mod-a-1.2.0-SNAPSHOT.5", "enable mod-b-1.0.0", "enable mod-c-1.0.0");
  }

  @Test
  void preReleaseFalse_newestReleasePicked() {
    assertThat(resolve("preRelease=false", enabled(), request("mod-c", Action.ENABLE)))
        .containsExactly("enable mod-a-1.1.0", "enable mod-b-1.0.0", "enable mod-c-1.0.0");
  }

  @Test
  void preReleaseOnly_onlyPreReleasesConsidered() {
    assertThat(available("preRelease=only")).containsOnlyKeys("mod-a-1.2.0-SNAPSHOT.5");
  }

  @Test
  void twoRequested_providersFirst_inOkapisOrder() {
    assertThat(
            resolve(
                "preRelease=false",
                enabled(),
                request("mod-c", Action.ENABLE, "mod-d", Action.ENABLE)))
        .containsExactly(
            "enable mod-d-1.0.0", "enable mod-a-1.1.0", "enable mod-b-1.0.0", "enable mod-c-1.0.0");
  }

  @Test
  void missingInterface_refusedNamingInterfaceAndModule() {
    assertThatThrownBy(() -> resolve("", enabled(), request("mod-x", Action.ENABLE)))
        .isInstanceOf(HttpError.class)
        .hasMessage("interface nothere required by module mod-x-1.0.0 not found");
  }

  @Test
  void unknownModule_orDisablingOneNotEnabled_refused() {
    assertThatThrownBy(() -> resolve("", enabled(), request("mod-zz", Action.ENABLE)))
        .hasMessage("Module mod-zz not found");
    assertThatThrownBy(() -> resolve("", enabled(), request("mod-c-1.0.0", Action.DISABLE)))
        .hasMessage("Module mod-c-1.0.0 not found");
  }

  @Test
  void upgradeToIncompatibleMajor_dependentsDisabledAfterIt() {
    Map<String, PlanModule> enabled = enabled("mod-a-1.1.0", "mod-b-1.0.0", "mod-c-1.0.0");
    List<PlanEntry> upgrades = DependencyResolver.upgrades(available(""), enabled);
    assertThat(resolve("", enabled, upgrades))
        .containsExactly(
            "enable mod-a-2.0.0 from mod-a-1.1.0", "disable mod-c-1.0.0", "disable mod-b-1.0.0");
    assertThat(enabled).containsOnlyKeys("mod-a-2.0.0");
  }

  @Test
  void enableEnabled_uptodate_orReinstalledFromItself() {
    assertThat(resolve("", enabled("mod-a-1.1.0"), request("mod-a-1.1.0", Action.ENABLE)))
        .containsExactly("uptodate mod-a-1.1.0");
    assertThat(
            resolve(
                "reinstall=true", enabled("mod-a-1.1.0"), request("mod-a-1.1.0", Action.ENABLE)))
        .containsExactly("enable mod-a-1.1.0 from mod-a-1.1.0");
  }

  @Test
  void disableProduct_dependentsDisabledFirst() {
    assertThat(
            resolve(
                "",
                enabled("mod-a-1.1.0", "mod-b-1.0.0", "mod-c-1.0.0"),
                request("mod-a", Action.DISABLE)))
        .containsExactly("disable mod-c-1.0.0", "disable mod-b-1.0.0", "disable mod-a-1.1.0");
  }

  @Test
  void olderVersionNamed_downgrade() {
    assertThat(
            resolve(
                "", enabled("mod-a-1.1.0", "mod-b-1.0.0"), request("mod-a-1.0.0", Action.ENABLE)))
        .containsExactly("enable mod-a-1.0.0 from mod-a-1.1.0");
  }

  @Test
  void suggest_echoedAsGiven() {
    assertThat(resolve("", enabled(), request("mod-c-1.0.0", Action.SUGGEST)))
        .containsExactly("suggest mod-c-1.0.0");
  }

  @Test
  void twoVersionsOfOneProductRequested_refused() {
    assertThatThrownBy(
            () ->
                resolve(
                    "",
                    enabled(),
                    request("mod-a-1.0.0", Action.ENABLE, "mod-a-1.1.0", Action.ENABLE)))
        .hasMessage("Cannot remove module mod-a-1.0.0 which is explicitly given");
  }

  @Test
  void versionRule_firstListedMajorDecides_patchCounts() {
    assertThat(InterfaceVersions.compatible("16.3", "14.2 15.0 16.0")).isTrue();
    assertThat(InterfaceVersions.compatible("1.0", "1.5 2.0")).isFalse();
    assertThat(InterfaceVersions.compatible("2.0", "1.5 2.0")).isTrue();
    assertThat(InterfaceVersions.compatible("1.2.3", "1.2.4")).isFalse();
    assertThat(InterfaceVersions.compatible("1.3", "1.2.4")).isTrue();
  }

  @Test
  void moduleIds_newestBySemVer_preReleaseBelowRelease() {
    assertThat(ModuleIds.newestOf("mod-a", List.of("mod-a-1.9.0", "mod-a-1.10.0", "mod-ab-9.0.0")))
        .isEqualTo("mod-a-1.10.0");
    assertThat(ModuleIds.newestOf("mod-a", List.of("mod-a-2.0.0-SNAPSHOT.3", "mod-a-2.0.0")))
        .isEqualTo("mod-a-2.0.0");
    assertThat(ModuleIds.product("mod-users-bl-7.1.0")).isEqualTo("mod-users-bl");
    assertThat(ModuleIds.parse("mod-x-1.2.100042").isNpmSnapshot()).isTrue();
    assertThat(ModuleIds.newestOf("mod-a", List.of())).isEqualTo("mod-a");
  }
}
