package io.okapigw.core.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.core.cluster.ClusteredRegistryStore;
import io.okapigw.core.registry.DeploymentDescriptor;
import io.okapigw.core.registry.ModuleDescriptor;
import io.okapigw.core.registry.RegistryStore;
import io.okapigw.core.registry.TenantDescriptor;
import io.okapigw.testsupport.TestPostgres;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** One contract, three stores: in-memory, cluster-wide async maps, PostgreSQL. */
class RegistryStoreContractTest {

  private static Vertx vertx;

  @BeforeAll
  static void start() {
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void stop() {
    vertx.close().await();
  }

  static Stream<Function<Vertx, RegistryStore>> stores() {
    return Stream.of(
        v -> RegistryStore.inMemory(),
        v -> ClusteredRegistryStore.create(v).await(),
        v ->
            Storage.open(v, StorageOptions.of(TestPostgres.get().createDatabase()))
                .await()
                .registry());
  }

  private static ModuleDescriptor module(String id) {
    return ModuleDescriptor.fromJson(new JsonObject().put("id", id).put("extra", "kept"));
  }

  @ParameterizedTest
  @MethodSource("stores")
  void modules_insertOnceReadListDelete(Function<Vertx, RegistryStore> factory) {
    RegistryStore store = factory.apply(vertx);
    assertThat(store.insertModule(module("mod-b-1")).await()).isTrue();
    assertThat(store.insertModule(module("mod-a-1")).await()).isTrue();
    assertThat(store.insertModule(module("mod-a-1")).await()).isFalse();
    assertThat(store.module("mod-a-1").await())
        .map(m -> m.toJson().getString("extra"))
        .contains("kept");
    assertThat(store.modules().await())
        .extracting(ModuleDescriptor::id)
        .containsExactly("mod-a-1", "mod-b-1");
    assertThat(store.deleteModule("mod-a-1").await()).isTrue();
    assertThat(store.deleteModule("mod-a-1").await()).isFalse();
    assertThat(store.module("mod-a-1").await()).isEqualTo(Optional.empty());
  }

  @ParameterizedTest
  @MethodSource("stores")
  void allEnabledModules_andTenantsEnabling_agreeWithEachTenantsList(
      Function<Vertx, RegistryStore> factory) {
    RegistryStore store = factory.apply(vertx);
    for (String t : List.of("diku", "east", "west")) {
      store.insertTenant(TenantDescriptor.fromJson(new JsonObject().put("id", t), null)).await();
    }
    store.setEnabledModules("diku", List.of("mod-b-1", "mod-a-1")).await();
    store.setEnabledModules("west", List.of("mod-a-1")).await();
    store.setEnabledModules("west", List.of("mod-a-2")).await();

    assertThat(store.allEnabledModules().await())
        .containsExactly(
            Map.entry("diku", List.of("mod-b-1", "mod-a-1")),
            Map.entry("east", List.of()),
            Map.entry("west", List.of("mod-a-2")));
    assertThat(store.tenantsEnabling(Set.of("mod-a-1")).await()).containsExactly("diku");
    assertThat(store.tenantsEnabling(Set.of("mod-a-2", "mod-b-1")).await())
        .containsExactly("diku", "west");
    store.deleteTenant("diku").await();
    assertThat(store.tenantsEnabling(Set.of("mod-a-1", "mod-b-1")).await()).isEmpty();
    store.deleteTenant("east").await();
    store.deleteTenant("west").await();
  }

  @ParameterizedTest
  @MethodSource("stores")
  void tenants_insertUpdateDeleteAlsoDropsEnablement(Function<Vertx, RegistryStore> factory) {
    RegistryStore store = factory.apply(vertx);
    TenantDescriptor diku = TenantDescriptor.fromJson(new JsonObject().put("id", "diku"), null);
    assertThat(store.insertTenant(diku).await()).isTrue();
    assertThat(store.insertTenant(diku).await()).isFalse();
    TenantDescriptor renamed = TenantDescriptor.fromJson(new JsonObject().put("name", "D"), "diku");
    assertThat(store.updateTenant(renamed).await()).isTrue();
    assertThat(store.tenant("diku").await()).map(t -> t.toJson().getString("name")).contains("D");
    assertThat(store.updateTenant(TenantDescriptor.fromJson(new JsonObject(), "nosuch")).await())
        .isFalse();
    store.setEnabledModules("diku", List.of("mod-b-1", "mod-a-1")).await();
    assertThat(store.enabledModules("diku").await()).containsExactly("mod-b-1", "mod-a-1");
    assertThat(store.tenants().await()).extracting(TenantDescriptor::id).containsExactly("diku");
    assertThat(store.deleteTenant("diku").await()).isTrue();
    assertThat(store.enabledModules("diku").await()).isEmpty();
    assertThat(store.deleteTenant("diku").await()).isFalse();
  }

  @ParameterizedTest
  @MethodSource("stores")
  void deployments_severalPerModule_deleteOneOrAll(Function<Vertx, RegistryStore> factory) {
    RegistryStore store = factory.apply(vertx);
    assertThat(store.insertDeployment(new DeploymentDescriptor("m", "i2", "http://b")).await())
        .isTrue();
    assertThat(store.insertDeployment(new DeploymentDescriptor("m", "i1", "http://a")).await())
        .isTrue();
    assertThat(store.insertDeployment(new DeploymentDescriptor("m", "i1", "http://c")).await())
        .isFalse();
    store.insertDeployment(new DeploymentDescriptor("n", "i3", "http://d")).await();
    assertThat(store.deployments().await())
        .extracting(DeploymentDescriptor::url)
        .containsExactly("http://a", "http://b", "http://d");
    assertThat(store.deleteDeployments("m", "i1").await()).isEqualTo(1);
    assertThat(store.deleteDeployments("m", null).await()).isEqualTo(1);
    assertThat(store.deleteDeployments("m", null).await()).isZero();
    assertThat(store.deployments().await())
        .extracting(DeploymentDescriptor::srvcId)
        .containsExactly("n");
  }

  @ParameterizedTest
  @MethodSource("stores")
  void deployments_replacedInPlace_onlyIfThere(Function<Vertx, RegistryStore> factory) {
    RegistryStore store = factory.apply(vertx);
    store.insertDeployment(new DeploymentDescriptor("m", "i1", "http://a")).await();
    store.insertDeployment(new DeploymentDescriptor("m", "i2", "http://b")).await();
    assertThat(store.replaceDeployment(new DeploymentDescriptor("m", "i1", "http://c")).await())
        .isTrue();
    assertThat(store.replaceDeployment(new DeploymentDescriptor("m", "i9", "http://d")).await())
        .isFalse();
    assertThat(store.deployments().await())
        .extracting(DeploymentDescriptor::url)
        .containsExactly("http://c", "http://b");
    assertThat(store.deleteDeployments("m", null).await()).isEqualTo(2);
  }

  @ParameterizedTest
  @MethodSource("stores")
  void installJobs_putReplacesPerTenant_deleteOneOrWithTheTenant(
      Function<Vertx, RegistryStore> factory) {
    RegistryStore store = factory.apply(vertx);
    store.insertTenant(TenantDescriptor.fromJson(new JsonObject().put("id", "diku"), null)).await();
    store
        .putInstallJob("diku", "j1", new JsonObject().put("id", "j1").put("complete", false))
        .await();
    store
        .putInstallJob("diku", "j1", new JsonObject().put("id", "j1").put("complete", true))
        .await();
    store.putInstallJob("diku", "j2", new JsonObject().put("id", "j2")).await();
    store.putInstallJob("other", "j3", new JsonObject().put("id", "j3")).await();
    assertThat(store.installJob("diku", "j1").await())
        .map(j -> j.getBoolean("complete"))
        .contains(true);
    assertThat(store.installJob("other", "j1").await()).isEmpty();
    assertThat(store.installJobs("diku").await())
        .extracting(j -> j.getString("id"))
        .containsExactlyInAnyOrder("j1", "j2");
    assertThat(store.deleteInstallJob("diku", "j2").await()).isTrue();
    assertThat(store.deleteInstallJob("diku", "j2").await()).isFalse();
    store.deleteTenant("diku").await();
    assertThat(store.installJobs("diku").await()).isEmpty();
    assertThat(store.installJobs("other").await()).hasSize(1);
  }
}
