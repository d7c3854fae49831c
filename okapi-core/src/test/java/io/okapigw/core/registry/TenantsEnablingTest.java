package io.okapigw.core.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The tenants enabling a module (a module's delete, a discovery change, a deployment's undeploy,
 * the timers) are found from the store's index, not by reading every tenant's enabled modules
 * (issue 45, item 2: with 300 tenants, 301 reads per question). Reads counted.
 */
class TenantsEnablingTest {

  private final CountingStore counting = new CountingStore(RegistryStore.inMemory());
  private final RegistryStore store = counting.store();

  @Test
  void tenantsUsing_readsNoTenantsList() {
    for (int i = 0; i < 300; i++) {
      store.insertTenant(TenantDescriptor.fromJson(new JsonObject().put("id", "t" + i), null));
      store.setEnabledModules("t" + i, i % 100 == 0 ? List.of("mod-a-1.0.0") : List.of());
    }
    counting.reset();

    List<String> users = TenantModules.tenantsUsing(store, Set.of("mod-a-1.0.0")).result();

    assertThat(users).containsExactly("t0", "t100", "t200");
    assertThat(counting.calls("enabledModules")).isZero();
    assertThat(counting.calls("tenants")).isZero();
  }

  @Test
  void index_followsEnableDisableUpgradeAndDelete() {
    RegistryStore memory = RegistryStore.inMemory();
    for (String t : List.of("a", "b", "c")) {
      memory.insertTenant(TenantDescriptor.fromJson(new JsonObject().put("id", t), null));
    }
    memory.setEnabledModules("a", List.of("m-1.0.0", "n-1.0.0"));
    memory.setEnabledModules("b", List.of("m-1.0.0"));
    memory.setEnabledModules("c", List.of("n-1.0.0"));
    assertThat(memory.tenantsEnabling(Set.of("m-1.0.0")).result()).containsExactly("a", "b");

    memory.setEnabledModules("b", List.of("m-1.1.0"));
    memory.deleteTenant("a");

    assertThat(memory.tenantsEnabling(Set.of("m-1.0.0")).result()).isEmpty();
    assertThat(memory.tenantsEnabling(Set.of("m-1.1.0", "n-1.0.0")).result())
        .containsExactly("b", "c");
    assertThat(memory.allEnabledModules().result())
        .containsOnlyKeys("b", "c")
        .containsEntry("b", List.of("m-1.1.0"));
  }
}
