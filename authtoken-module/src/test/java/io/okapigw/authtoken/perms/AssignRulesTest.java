package io.okapigw.authtoken.perms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.okapigw.authtoken.http.ApiException;
import io.okapigw.authtoken.store.PermissionSetRecord;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * mod-permissions 6.5.0's rules for what a caller may grant ({@code checkOperatingPermissions}).
 */
class AssignRulesTest {
  private static final PermissionGraph GRAPH =
      PermissionGraph.of(
          List.of(
              new PermissionSetRecord("okapi-6.1.5", "okapi.all", List.of("okapi.env")),
              new PermissionSetRecord("mod-a-1.0.0", "a.all", List.of("a.get")),
              new PermissionSetRecord("mod-a-1.0.0", "a.post", List.of())));

  private static Operator holding(String... permissions) {
    return new Operator("u-1", Set.of(permissions), List.of());
  }

  private static void assertRefused(Operator operator, List<String> added, String message) {
    assertThatThrownBy(() -> AssignRules.check(operator, GRAPH, added))
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(403))
        .hasMessage(message);
  }

  private static void assertAllowed(Operator operator, List<String> added) {
    assertThatCode(() -> AssignRules.check(operator, GRAPH, added)).doesNotThrowAnyException();
  }

  @Test
  void definesSetsTheirSubPermissionsAndSetsWithoutSubs_notOtherNames() {
    assertThat(List.of("okapi.all", "okapi.env", "a.get", "a.post")).allMatch(GRAPH::defines);
    assertThat(GRAPH.defines("b.get")).isFalse();
    assertThat(PermissionGraph.EMPTY.defines("a.get")).isFalse();
  }

  @Test
  void okapiName_withoutAssignOkapi_refused_definedOrNot_evenWithAssignImmutable() {
    Operator admin = holding(AssignRules.ASSIGN_IMMUTABLE);
    assertRefused(
        admin,
        List.of("okapi.all"),
        "Cannot add okapi permission okapi.all not owned by operating user u-1");
    assertRefused(
        admin,
        List.of("a.get", "okapi.undefined", AssignRules.ASSIGN_OKAPI),
        "Cannot add okapi permissions okapi.undefined, perms.users.assign.okapi"
            + " not owned by operating user u-1");
  }

  @Test
  void okapiName_withAssignOkapiOnly_stillNeedsAssignImmutableIfDefined() {
    Operator okapiOnly = holding(AssignRules.ASSIGN_OKAPI);
    assertAllowed(okapiOnly, List.of("okapi.undefined"));
    assertRefused(
        okapiOnly,
        List.of("okapi.all"),
        "Cannot add immutable permission okapi.all not owned by operating user u-1");
    assertAllowed(
        holding(AssignRules.ASSIGN_OKAPI, AssignRules.ASSIGN_IMMUTABLE), List.of("okapi.all"));
  }

  @Test
  void definedName_withoutAssignImmutable_refused_undefinedName_allowed() {
    assertRefused(
        holding(),
        List.of("a.all", "b.get", "a.post"),
        "Cannot add immutable permissions a.all, a.post not owned by operating user u-1");
    assertAllowed(holding(), List.of("b.get", "okapix"));
  }

  @Test
  void whatTheCallerHolds_alwaysAllowed() {
    assertAllowed(
        holding("okapi.all", "okapi.env", "a.get"), List.of("okapi.all", "okapi.env", "a.get"));
  }

  @Test
  void refusal_namesTheModulePermissions_asModPermissions() {
    Operator module = new Operator("null", Set.of("a.get"), List.of("a.get"));
    assertRefused(
        module,
        List.of("okapi.env"),
        "Cannot add okapi permission okapi.env not owned by operating user null,"
            + " modulePermissions: a.get");
  }
}
