package io.okapigw.core.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.okapigw.core.http.HttpError;
import io.okapigw.core.registry.ModuleDescriptor;
import io.okapigw.core.registry.RegistryStore;
import io.okapigw.core.registry.TenantDescriptor;
import io.okapigw.testsupport.Descriptors;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A routing table never holds a tenant's routes without that tenant's auth stage: what a node cut
 * off from its cluster compiled from its partial copy of the maps (the tenant's enabled list naming
 * the authtoken module, whose descriptor was in a map partition the node did not hold) served the
 * tenant's routes unauthenticated. The tenant is served 503 instead; a tenant that never had an
 * auth filter (the single-node demo's) is served as before.
 */
class RoutingTablesFailClosedTest {

  private static final String AUTH = "mod-authtoken-1.0.0";
  private static final String GUARDED = "mod-guarded-1.0.0";

  private final RegistryStore store = RegistryStore.inMemory();
  private final AtomicBoolean partial = new AtomicBoolean();
  private final RoutingTables tables = new RoutingTables(store, partial::get, null);

  private static ModuleDescriptor authModule() {
    return ModuleDescriptor.fromJson(
        Descriptors.filters(AUTH, Descriptors.filter("/*", "auth"))
            .put(
                "provides",
                Descriptors.module(AUTH, "authtoken", Descriptors.handler("POST", "/authn/login"))
                    .getJsonArray("provides")));
  }

  private static ModuleDescriptor guardedModule() {
    return ModuleDescriptor.fromJson(
        Descriptors.module(GUARDED, "guarded", Descriptors.handler("GET", "/guarded", "g.get")));
  }

  private void tenant(String id, String... enabled) {
    store.insertTenant(TenantDescriptor.fromJson(new JsonObject().put("id", id), id)).await();
    store.setEnabledModules(id, List.of(enabled)).await();
  }

  /**
   * @return the pipeline of {@code GET /guarded}, empty if none; throws the table's 503
   */
  private Optional<Pipeline> guarded(String tenant) {
    tables.rebuild().await();
    return tables.forTenant(tenant).orElseThrow().match("GET", "/guarded", null);
  }

  private static void assertUnavailable(Runnable call) {
    assertThatThrownBy(call::run)
        .isInstanceOfSatisfying(
            HttpError.class, e -> assertThat(e.status()).as("status").isEqualTo(503));
  }

  @Test
  void rebuild_enabledAuthModuleMissingFromTheMaps_tenantServed503NeverWithoutAuth() {
    store.insertModule(guardedModule()).await();
    tenant("diku", AUTH, GUARDED);

    assertUnavailable(() -> guarded("diku"));
  }

  @Test
  void rebuild_everyEnabledModuleKnown_routedWithTheAuthStage() {
    store.insertModule(authModule()).await();
    store.insertModule(guardedModule()).await();
    tenant("diku", AUTH, GUARDED);

    assertThat(guarded("diku")).hasValueSatisfying(p -> assertThat(p.auth()).isPresent());
  }

  @Test
  void rebuild_tenantThatNeverHadAnAuthFilter_servedWithout() {
    store.insertModule(guardedModule()).await();
    tenant("demo", GUARDED);

    assertThat(guarded("demo")).hasValueSatisfying(p -> assertThat(p.auth()).isEmpty());
    partial.set(true);
    assertThat(guarded("demo")).as("cut off, still").isPresent();
  }

  @Test
  void rebuild_cutOffAndTheAuthFilterGone_tenantServed503() {
    store.insertModule(authModule()).await();
    store.insertModule(guardedModule()).await();
    tenant("diku", AUTH, GUARDED);
    assertThat(guarded("diku")).isPresent();

    partial.set(true);
    store.setEnabledModules("diku", List.of(GUARDED)).await();
    assertUnavailable(() -> guarded("diku"));
    assertUnavailable(() -> guarded("diku"));

    partial.set(false);
    assertThat(guarded("diku"))
        .as("the whole registry seen again: its enabled list is the tenant's")
        .hasValueSatisfying(p -> assertThat(p.auth()).isEmpty());
  }

  @Test
  void rebuild_cutOffAndTheEnabledListOrTenantGone_tenantServed503() {
    store.insertModule(guardedModule()).await();
    tenant("demo", GUARDED);
    tenant("other", GUARDED);
    assertThat(guarded("demo")).isPresent();

    partial.set(true);
    store.setEnabledModules("demo", List.of()).await();
    store.deleteTenant("other").await();
    assertUnavailable(() -> guarded("demo"));
    assertUnavailable(() -> guarded("other"));
  }

  @Test
  void match_tenantServed503_builtInModulesPublicHandlersStillServed() {
    ModuleDescriptor okapi =
        ModuleDescriptor.fromJson(
            Descriptors.module(
                "okapi-9.9.9",
                "okapi-proxy",
                Descriptors.handler("GET", "/_/proxy/health"),
                Descriptors.handler("GET", "/_/proxy/tenants", "okapi.proxy.tenants.list")));
    RoutingTables withBuiltIn = new RoutingTables(store, partial::get, okapi);
    tenant("supertenant", "okapi-9.9.9", AUTH);

    withBuiltIn.rebuild().await();
    RoutingTable table = withBuiltIn.forTenant("supertenant").orElseThrow();
    assertThat(table.match("GET", "/_/proxy/health", null)).as("the node's health").isPresent();
    assertUnavailable(() -> table.match("GET", "/_/proxy/tenants", null));
  }
}
