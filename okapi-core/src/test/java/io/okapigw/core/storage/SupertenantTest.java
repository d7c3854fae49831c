package io.okapigw.core.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.core.admin.OkapiModule;
import io.okapigw.core.registry.ModuleDescriptor;
import io.okapigw.core.registry.Registry;
import io.okapigw.core.registry.RegistryStore;
import io.okapigw.core.registry.TenantDescriptor;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The supertenant and the okapi module, from the first start, on every kind of storage. */
class SupertenantTest {

  private static final String STORES = "io.okapigw.core.storage.RegistryStoreContractTest#stores";

  /** A Vert.x per test: the cluster-wide maps of one would carry a test's tenants to the next. */
  private Vertx vertx;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
  }

  @AfterEach
  void stop() {
    vertx.close().await();
  }

  private Registry registry(RegistryStore store) {
    return new Registry(vertx, store);
  }

  @ParameterizedTest
  @MethodSource(STORES)
  void firstStart_supertenantWithTheOkapiModule_andAgainChangesNothing(
      Function<Vertx, RegistryStore> factory) {
    RegistryStore store = factory.apply(vertx);
    registry(store).ensureSupertenant(OkapiModule.descriptor("1.0.0")).await();
    registry(store).ensureSupertenant(OkapiModule.descriptor("1.0.0")).await();
    assertThat(store.tenants().await())
        .extracting(TenantDescriptor::id)
        .containsExactly("supertenant");
    assertThat(store.tenant("supertenant").await().orElseThrow().toJson().getString("description"))
        .isEqualTo("Okapi built-in super tenant");
    assertThat(store.enabledModules("supertenant").await()).containsExactly("okapi-1.0.0");
    ModuleDescriptor okapi = store.module("okapi-1.0.0").await().orElseThrow();
    assertThat(
            okapi.permissionSets().stream().map(s -> ((JsonObject) s).getString("permissionName")))
        .contains("okapi.all", "okapi.proxy.modules.post");
  }

  @ParameterizedTest
  @MethodSource(STORES)
  void newVersion_everyTenantWithAnOlderOkapiModuleGetsThisOne(
      Function<Vertx, RegistryStore> factory) {
    RegistryStore store = factory.apply(vertx);
    registry(store).ensureSupertenant(OkapiModule.descriptor("1.0.0")).await();
    store.insertTenant(TenantDescriptor.fromJson(new JsonObject().put("id", "diku"), null)).await();
    store.setEnabledModules("diku", List.of("mod-a-1", "okapi-1.0.0")).await();
    registry(store).ensureSupertenant(OkapiModule.descriptor("1.1.0")).await();
    assertThat(store.enabledModules("supertenant").await()).containsExactly("okapi-1.1.0");
    assertThat(store.enabledModules("diku").await()).containsExactly("mod-a-1", "okapi-1.1.0");
  }
}
