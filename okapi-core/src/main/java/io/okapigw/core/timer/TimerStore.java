package io.okapigw.core.timer;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Where changed timers live: as in Okapi, only timers changed by a PATCH are stored (their routing
 * entry as patched); the others follow their module's descriptor. Kept where the registry is:
 * PostgreSQL (Okapi's {@code timers} table, see the {@code storage} package; survives a full
 * restart) or the cluster-wide maps (survive the loss of a node) or this JVM.
 */
public interface TimerStore {

  /**
   * @return a store in Vert.x shared data: cluster-wide (one backup) when clustered, else this JVM
   */
  static Future<TimerStore> shared(Vertx vertx) {
    return SharedDataTimerStore.create(vertx);
  }

  /**
   * A stored change.
   *
   * @param tenant the tenant
   * @param id the timer's id, {@code <product>_<seq>}
   * @param entry the routing entry as patched
   */
  record Patch(String tenant, String id, JsonObject entry) {}

  /**
   * @return the tenant's changed timers: id to patched routing entry
   */
  default Future<Map<String, JsonObject>> forTenant(String tenant) {
    return all()
        .map(
            all ->
                all.stream()
                    .filter(p -> p.tenant().equals(tenant))
                    .collect(Collectors.toMap(Patch::id, Patch::entry, (a, b) -> b)));
  }

  /**
   * @return every tenant's changed timers
   */
  Future<List<Patch>> all();

  /** Stores (or replaces) a changed timer. */
  Future<Void> put(Patch patch);

  /** Forgets a changed timer (none: no effect). */
  Future<Void> delete(String tenant, String id);

  /** Releases what the store holds of its own (a database's pool belongs to its storage). */
  Future<Void> close();
}
