package io.okapigw.core.storage;

import io.okapigw.core.cluster.ClusteredRegistryStore;
import io.okapigw.core.registry.RegistryStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/** Opens the registry store the {@code storage} setting names. */
public final class Storage {

  private Storage() {}

  /**
   * @param storage {@code inmemory} (this JVM; cluster-wide maps when Vert.x is clustered) or
   *     {@code postgresql://user:pass@host:port/db}
   */
  public static Future<RegistryStore> open(Vertx vertx, String storage) {
    if (storage.startsWith("postgres")) {
      return PostgresRegistryStore.connect(vertx, storage);
    }
    return vertx.isClustered()
        ? ClusteredRegistryStore.create(vertx)
        : Future.succeededFuture(RegistryStore.inMemory());
  }
}
