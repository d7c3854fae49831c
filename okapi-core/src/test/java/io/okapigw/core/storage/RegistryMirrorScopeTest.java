package io.okapigw.core.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.core.registry.ChangeScope;
import io.okapigw.core.registry.CountingStore;
import io.okapigw.core.registry.DeploymentDescriptor;
import io.okapigw.core.registry.ModuleDescriptor;
import io.okapigw.core.registry.RegistryStore;
import io.okapigw.core.registry.TenantDescriptor;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A PostgreSQL registry's copy in memory re-reads what another node's change touched, not the whole
 * database (issue 45, item 2): before, each change announced by another node re-read every module,
 * tenant and instance, and every tenant's enabled modules one query each, twice (for the routing
 * tables and for the timers), so with 300 tenants one install's 60 commits on one node cost 60 x 2
 * x 303 queries on every other node. Reads are counted on the database's side.
 */
class RegistryMirrorScopeTest {

  private static final int TENANTS = 50;

  private final CountingStore database = new CountingStore(RegistryStore.inMemory());
  private RegistryStore tables;
  private RegistryStore mirror;

  @BeforeEach
  void fifty_tenants_with_three_modules_each() {
    tables = database.store();
    for (String m : List.of("mod-a-1.0.0", "mod-b-1.0.0", "mod-c-1.0.0")) {
      tables.insertModule(module(m, "1.0"));
      tables.insertDeployment(new DeploymentDescriptor(m, m + "-1", "http://localhost:1"));
    }
    for (int i = 0; i < TENANTS; i++) {
      tables.insertTenant(tenant("t" + i));
      tables.setEnabledModules("t" + i, List.of("mod-a-1.0.0", "mod-b-1.0.0", "mod-c-1.0.0"));
    }
    database.reset();
    mirror = RegistryMirror.load(tables, "db:5432/okapi").result();
  }

  @Test
  void start_readsEveryTenantsEnabledModulesInOneRead() {
    assertThat(database.calls("allEnabledModules")).isEqualTo(1);
    assertThat(database.calls("enabledModules")).as("one read per tenant").isZero();
    assertThat(mirror.enabledModules("t7").result()).hasSize(3);
    assertThat(mirror.tenants().result()).hasSize(TENANTS);
  }

  @Test
  void oneTenantsChange_readsThatTenantsRowsOnly() {
    tables.setEnabledModules("t7", List.of("mod-a-1.0.0"));
    tables.insertTenant(tenant("tnew"));
    tables.deleteTenant("t9");
    database.reset();

    mirror.refresh(ChangeScope.tenants("t7", "tnew", "t9")).result();

    assertThat(mirror.enabledModules("t7").result()).containsExactly("mod-a-1.0.0");
    assertThat(mirror.tenant("tnew").result()).isPresent();
    assertThat(mirror.tenant("t9").result()).isEmpty();
    assertThat(mirror.tenantsEnabling(java.util.Set.of("mod-b-1.0.0")).result())
        .hasSize(TENANTS - 2)
        .doesNotContain("t7", "t9");
    assertThat(database.all())
        .as("database reads")
        .isEqualTo(Map.of("tenant", 3, "enabledModules", 3));
  }

  @Test
  void oneModulesChange_readsThatModuleAndTheInstances_noTenant() {
    ModuleDescriptor changed = module("mod-b-1.0.0", "1.1");
    tables.putModule(changed);
    tables.deleteDeployments("mod-b-1.0.0", null);
    tables.insertDeployment(new DeploymentDescriptor("mod-b-1.0.0", "b-2", "http://localhost:2"));
    database.reset();

    mirror.refresh(ChangeScope.modules(List.of("mod-b-1.0.0"))).result();

    assertThat(mirror.module("mod-b-1.0.0").result().orElseThrow().toJson())
        .isEqualTo(changed.toJson());
    assertThat(
            mirror.deployments().result().stream()
                .filter(d -> d.srvcId().equals("mod-b-1.0.0"))
                .map(DeploymentDescriptor::instId))
        .containsExactly("b-2");
    assertThat(mirror.deployments().result()).hasSize(3);
    assertThat(database.all())
        .as("database reads")
        .isEqualTo(Map.of("module", 1, "deployments", 1));
  }

  @Test
  void everything_readsEverything() {
    tables.setEnabledModules("t3", List.of());
    database.reset();

    mirror.refresh(ChangeScope.all()).result();

    assertThat(mirror.enabledModules("t3").result()).isEmpty();
    assertThat(database.calls("tenants")).isEqualTo(1);
    assertThat(database.calls("allEnabledModules")).isEqualTo(1);
  }

  private static ModuleDescriptor module(String id, String version) {
    return ModuleDescriptor.fromJson(
        new JsonObject()
            .put("id", id)
            .put(
                "provides",
                new io.vertx.core.json.JsonArray()
                    .add(new JsonObject().put("id", id.substring(0, 5)).put("version", version))));
  }

  private static TenantDescriptor tenant(String id) {
    return TenantDescriptor.fromJson(new JsonObject().put("id", id), null);
  }
}
