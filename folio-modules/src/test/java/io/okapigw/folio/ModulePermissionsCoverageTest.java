package io.okapigw.folio;

import static io.okapigw.folio.GatewayWithModules.delta;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.okapigw.folio.data.CirculationData;
import io.okapigw.folio.module.HandlerSpec;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What an auth module will enforce later, computed from the descriptors: the handlers a check-out
 * or check-in really calls (measured at the modules) must each be covered by the calling handler's
 * modulePermissions, permission sets expanded.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ModulePermissionsCoverageTest {

  private static final String CHECK_OUT =
      "mod-circulation-24.5.0 POST /circulation/check-out-by-barcode";
  private static final String CHECK_IN =
      "mod-circulation-24.5.0 POST /circulation/check-in-by-barcode";

  private GatewayWithModules fx;
  private Map<String, HandlerSpec> handlers;
  private PermissionSets sets;

  @BeforeAll
  void start() {
    fx =
        new GatewayWithModules(
            CirculationData.Options.defaults().withPatrons(20).withItems(20),
            Duration.ofSeconds(10));
    List<JsonObject> descriptors =
        fx.modules.deployments().stream().map(ModuleDeployment::descriptor).toList();
    handlers = new HashMap<>();
    descriptors.stream()
        .flatMap(d -> HandlerSpec.of(d).stream())
        .forEach(h -> handlers.put(h.moduleId() + " " + h.key(), h));
    sets = new PermissionSets(descriptors);
  }

  @AfterAll
  void stop() {
    fx.close();
  }

  @Test
  void checkOut_modulePermissions_coverEveryHandlerItCalls() {
    Map<String, Long> called =
        measure(() -> fx.checkOut("I000001", "P000001").then().statusCode(201));

    assertThat(called).containsEntry(CHECK_OUT, 1L);
    assertThat(uncovered(CHECK_OUT, called)).isEmpty();
  }

  @Test
  void checkIn_modulePermissions_coverEveryHandlerItCalls() {
    fx.checkOut("I000002", "P000002").then().statusCode(201);
    Map<String, Long> called = measure(() -> fx.checkIn("I000002").then().statusCode(200));

    assertThat(called).containsEntry(CHECK_IN, 1L);
    assertThat(uncovered(CHECK_IN, called)).isEmpty();
  }

  @Test
  void checkOut_callsExactlyTheseHandlers() {
    Map<String, Long> called =
        new TreeMap<>(measure(() -> fx.checkOut("I000003", "P000003").then().statusCode(201)));
    called.remove(CHECK_OUT);

    assertThat(called)
        .containsOnly(
            entry("mod-users-19.5.0 GET /users", 1L),
            entry("mod-users-19.5.0 GET /groups/{id}", 1L),
            entry("mod-users-19.5.0 GET /proxiesfor", 1L),
            entry("mod-feesfines-19.2.0 GET /manualblocks", 1L),
            entry("mod-patron-blocks-1.12.0 GET /automated-patron-blocks/{id}", 1L),
            entry("mod-inventory-storage-27.2.0 GET /item-storage/items", 1L),
            entry("mod-inventory-storage-27.2.0 GET /service-points/{id}", 1L),
            entry("mod-inventory-storage-27.2.0 GET /holdings-storage/holdings/{id}", 1L),
            entry("mod-inventory-storage-27.2.0 GET /instance-storage/instances/{id}", 1L),
            entry("mod-inventory-storage-27.2.0 GET /locations/{id}", 2L),
            entry("mod-inventory-storage-27.2.0 GET /material-types/{id}", 1L),
            entry("mod-inventory-storage-27.2.0 GET /loan-types/{id}", 1L),
            entry("mod-circulation-storage-17.3.0 GET /loan-storage/loans", 2L),
            entry("mod-circulation-storage-17.3.0 GET /request-storage/requests", 1L),
            entry("mod-circulation-24.5.0 GET /circulation/rules/loan-policy", 1L),
            entry("mod-circulation-24.5.0 GET /circulation/rules/request-policy", 1L),
            entry("mod-circulation-24.5.0 GET /circulation/rules/notice-policy", 1L),
            entry("mod-circulation-24.5.0 GET /circulation/rules/overdue-fine-policy", 1L),
            entry("mod-circulation-24.5.0 GET /circulation/rules/lost-item-policy", 1L),
            entry("mod-circulation-storage-17.3.0 GET /loan-policy-storage/loan-policies/{id}", 1L),
            entry(
                "mod-circulation-storage-17.3.0 GET /request-policy-storage/request-policies/{id}",
                1L),
            entry(
                "mod-circulation-storage-17.3.0 GET "
                    + "/patron-notice-policy-storage/patron-notice-policies/{id}",
                1L),
            entry("mod-feesfines-19.2.0 GET /overdue-fines-policies/{id}", 1L),
            entry("mod-feesfines-19.2.0 GET /lost-item-fees-policies/{id}", 1L),
            entry("mod-circulation-storage-17.3.0 POST /check-out-lock-storage", 1L),
            entry("mod-circulation-storage-17.3.0 POST /loan-storage/loans", 1L),
            entry("mod-inventory-storage-27.2.0 PUT /item-storage/items/{id}", 1L),
            entry("mod-circulation-storage-17.3.0 DELETE /check-out-lock-storage/{id}", 1L),
            entry(
                "mod-circulation-storage-17.3.0 POST "
                    + "/patron-action-session-storage/patron-action-sessions",
                1L),
            entry("mod-notify-4.2.0 POST /patron-notice", 1L),
            entry("mod-pubsub-2.16.0 POST /pubsub/publish", 1L));
  }

  @Test
  void checkIn_callsExactlyTheseHandlers() {
    fx.checkOut("I000004", "P000004").then().statusCode(201);
    Map<String, Long> called =
        new TreeMap<>(measure(() -> fx.checkIn("I000004").then().statusCode(200)));
    called.remove(CHECK_IN);

    assertThat(called)
        .containsOnly(
            entry("mod-inventory-storage-27.2.0 GET /item-storage/items", 1L),
            entry("mod-inventory-storage-27.2.0 GET /service-points/{id}", 1L),
            entry("mod-circulation-storage-17.3.0 GET /loan-storage/loans", 1L),
            entry("mod-inventory-storage-27.2.0 GET /holdings-storage/holdings/{id}", 1L),
            entry("mod-inventory-storage-27.2.0 GET /locations/{id}", 1L),
            entry("mod-inventory-storage-27.2.0 GET /material-types/{id}", 1L),
            entry("mod-inventory-storage-27.2.0 GET /loan-types/{id}", 1L),
            entry("mod-circulation-storage-17.3.0 GET /request-storage/requests", 1L),
            entry("mod-inventory-storage-27.2.0 GET /instance-storage/instances/{id}", 1L),
            entry("mod-users-19.5.0 GET /users/{id}", 1L),
            entry("mod-circulation-24.5.0 GET /circulation/rules/notice-policy", 1L),
            entry("mod-circulation-storage-17.3.0 GET /loan-policy-storage/loan-policies/{id}", 1L),
            entry("mod-feesfines-19.2.0 GET /overdue-fines-policies/{id}", 1L),
            entry("mod-feesfines-19.2.0 GET /lost-item-fees-policies/{id}", 1L),
            entry("mod-feesfines-19.2.0 GET /accounts", 1L),
            entry(
                "mod-circulation-storage-17.3.0 GET "
                    + "/patron-notice-policy-storage/patron-notice-policies/{id}",
                1L),
            entry("mod-circulation-storage-17.3.0 PUT /loan-storage/loans/{id}", 1L),
            entry("mod-inventory-storage-27.2.0 PUT /item-storage/items/{id}", 1L),
            entry("mod-circulation-storage-17.3.0 POST /check-in-storage/check-ins", 1L),
            entry("mod-notify-4.2.0 POST /patron-notice", 1L),
            entry("mod-pubsub-2.16.0 POST /pubsub/publish", 1L));
  }

  @Test
  void everyRequiredPermission_isDefinedByItsModule() {
    Set<String> undefined = new TreeSet<>();
    handlers
        .values()
        .forEach(
            h ->
                h.permissionsRequired().stream()
                    .filter(p -> !sets.defines(p))
                    .forEach(p -> undefined.add(h.moduleId() + ": " + p)));

    assertThat(undefined).isEmpty();
  }

  @Test
  void librarianPermissions_grantBothClientFacingHandlers() {
    assertThat(CirculationModules.librarianPermissions())
        .containsAll(handlers.get(CHECK_OUT).permissionsRequired())
        .containsAll(handlers.get(CHECK_IN).permissionsRequired());
  }

  private Map<String, Long> measure(Runnable operation) {
    Map<String, Long> before = fx.served();
    operation.run();
    return delta(before, fx.served());
  }

  /**
   * @return "handler: permission" for every permission a called handler requires but lacks
   */
  private Set<String> uncovered(String caller, Map<String, Long> called) {
    Set<String> granted = sets.expand(handlers.get(caller).modulePermissions());
    Set<String> missing = new TreeSet<>();
    called.keySet().stream()
        .filter(key -> !key.equals(caller))
        .forEach(
            key -> {
              HandlerSpec callee = handlers.get(key);
              assertThat(callee).as("handler " + key).isNotNull();
              callee.permissionsRequired().stream()
                  .filter(p -> !granted.contains(p))
                  .forEach(p -> missing.add(key + ": " + p));
            });
    return missing;
  }
}
