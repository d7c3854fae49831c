package io.okapigw.core.storage;

import io.okapigw.core.cluster.ClusteredRegistryStore;
import io.okapigw.core.registry.RegistryStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/**
 * Opens the registry store the {@code storage} settings name, and runs Okapi's database commands on
 * it: {@link #init} ({@code initdatabase}) and {@link #purge} ({@code purgedatabase}).
 */
public final class Storage {

  /** This gateway's tables in PostgreSQL (the registry's and the changed timers'). */
  private static final String TABLES =
      "okapigw_modules, okapigw_tenants, okapigw_enabled, okapigw_deployments,"
          + " okapigw_install_jobs, okapigw_timers";

  private Storage() {}

  /**
   * @param storage in memory (this JVM; cluster-wide maps when Vert.x is clustered) or PostgreSQL
   */
  public static Future<RegistryStore> open(Vertx vertx, StorageOptions storage) {
    if (storage.isPostgres()) {
      return PostgresRegistryStore.connect(vertx, storage.postgres());
    }
    return vertx.isClustered()
        ? ClusteredRegistryStore.create(vertx)
        : Future.succeededFuture(RegistryStore.inMemory());
  }

  /**
   * Okapi's {@code initdatabase}: drops the storage's tables with all their data and creates them
   * empty. Nothing to do in memory.
   */
  public static Future<Void> init(Vertx vertx, StorageOptions storage) {
    if (!storage.isPostgres()) {
      return Future.succeededFuture();
    }
    return purge(vertx, storage)
        .compose(v -> PostgresRegistryStore.createTables(vertx, storage.postgres()));
  }

  /**
   * Okapi's {@code purgedatabase}: drops the storage's tables with all their data. Nothing to do in
   * memory.
   */
  public static Future<Void> purge(Vertx vertx, StorageOptions storage) {
    if (!storage.isPostgres()) {
      return Future.succeededFuture();
    }
    return PostgresTables.run(vertx, storage.postgres(), "DROP TABLE IF EXISTS " + TABLES);
  }
}
