package io.okapigw.core.timer;

import io.okapigw.core.storage.StorageOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;

/**
 * Where changed timers live: as in Okapi, only timers changed by a PATCH are stored (their routing
 * entry as patched); the others follow their module's descriptor. Kept where the registry is:
 * PostgreSQL (survives a full restart) or the cluster-wide maps (survive the loss of a node) or
 * this JVM.
 */
interface TimerStore {

  /**
   * @param storage the {@code storage} settings: PostgreSQL or in memory
   * @return the store, its table created if missing
   */
  static Future<TimerStore> open(Vertx vertx, StorageOptions storage) {
    return storage.isPostgres()
        ? PostgresTimerStore.connect(vertx, storage.postgres())
        : SharedDataTimerStore.create(vertx);
  }

  /** A stored change. */
  record Patch(String tenant, String id, JsonObject entry) {}

  /**
   * @return the tenant's changed timers: id to patched routing entry
   */
  Future<Map<String, JsonObject>> forTenant(String tenant);

  /**
   * @return every tenant's changed timers
   */
  Future<List<Patch>> all();

  /** Stores (or replaces) a changed timer. */
  Future<Void> put(Patch patch);

  /** Forgets a changed timer (none: no effect). */
  Future<Void> delete(String tenant, String id);

  /** Releases connections. */
  Future<Void> close();
}
