package io.okapigw.core;

import io.okapigw.core.registry.DeploymentDescriptor;
import io.okapigw.core.registry.ModuleDescriptor;
import io.okapigw.core.registry.RegistryStore;
import io.okapigw.core.registry.TenantDescriptor;
import io.okapigw.core.storage.Storage;
import io.okapigw.core.storage.StorageOptions;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a registry straight into a store, as the gateway itself stores it (Okapi's tables on
 * PostgreSQL): for benchmarks that measure a start from a large registry without first building it
 * through the admin API. Blocking: call it from a thread that may wait, never from an event loop.
 */
public final class RegistrySeed {

  private RegistrySeed() {}

  /**
   * @param storage the store, as {@code --storage} names it (e.g. {@code postgres://...})
   * @param descriptors module descriptors, as posted to {@code /_/proxy/modules}
   * @param moduleUrl the one instance every module is discovered at
   * @param tenants tenant ids, each created and given every module enabled
   */
  public static void seed(
      Vertx vertx,
      String storage,
      List<JsonObject> descriptors,
      String moduleUrl,
      List<String> tenants) {
    Storage opened = Storage.open(vertx, StorageOptions.of(storage)).await();
    try {
      RegistryStore store = opened.registry();
      List<String> ids = new ArrayList<>();
      for (JsonObject d : descriptors) {
        ModuleDescriptor m = ModuleDescriptor.fromPosted(d.copy());
        store.insertModule(m).await();
        store.insertDeployment(new DeploymentDescriptor(m.id(), m.id() + "-1", moduleUrl)).await();
        ids.add(m.id());
      }
      for (String tenant : tenants) {
        store
            .insertTenant(TenantDescriptor.fromJson(new JsonObject().put("id", tenant), null))
            .await();
        store.setEnabledModules(tenant, ids).await();
      }
    } finally {
      opened.close().await();
    }
  }
}
