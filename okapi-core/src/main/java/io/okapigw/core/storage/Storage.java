package io.okapigw.core.storage;

import io.okapigw.core.cluster.ClusteredRegistryStore;
import io.okapigw.core.deployment.EnvStore;
import io.okapigw.core.registry.RegistryStore;
import io.okapigw.core.timer.TimerStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.function.Supplier;

/**
 * Where a node keeps its registry, changed timers and {@code /_/env}, as the storage settings
 * ({@link StorageOptions}) name it: in memory (this JVM; cluster-wide maps when Vert.x is
 * clustered) or a PostgreSQL database (Okapi's {@code storage=postgres} and {@code postgres_*}
 * keys, or {@code postgresql://user:pass@host:port/db}) in Okapi's own tables, so a database Okapi
 * 6.x or 7.0.x wrote is served as it is and Okapi can be started on it again. Okapi's commands
 * {@code initdatabase} and {@code purgedatabase} are {@link #init} and {@link #purge}.
 */
public final class Storage {

  private final RegistryStore registry;
  private final TimerStore timers;
  private final EnvStore env;
  private final Supplier<Future<Void>> closer;

  Storage(RegistryStore registry, TimerStore timers, EnvStore env, Supplier<Future<Void>> closer) {
    this.registry = registry;
    this.timers = timers;
    this.env = env;
    this.closer = closer;
  }

  /**
   * Opens the storage. For PostgreSQL: creates what is missing (Okapi's tables as Okapi creates
   * them, this gateway's {@code okapigw_*} tables beside them), moves a registry an earlier version
   * of this gateway kept in its own tables into Okapi's, and marks the database as written by this
   * gateway while the node runs (Okapi's writes are refused meanwhile).
   *
   * @param storage in memory or PostgreSQL
   * @return the storage; fails naming the database and the problem
   */
  public static Future<Storage> open(Vertx vertx, StorageOptions storage) {
    if (storage.isPostgres()) {
      return PostgresDatabase.open(vertx, storage.postgres());
    }
    return Future.all(
            vertx.isClustered()
                ? ClusteredRegistryStore.create(vertx)
                : Future.succeededFuture(RegistryStore.inMemory()),
            TimerStore.shared(vertx))
        .map(
            all ->
                new Storage(
                    all.resultAt(0),
                    all.resultAt(1),
                    EnvStore.shared(vertx),
                    Future::succeededFuture));
  }

  /**
   * Okapi's {@code initdatabase}: drops Okapi's tables and this gateway's ({@code okapigw_*}) with
   * all their data, and creates them empty. Nothing to do for {@code inmemory}.
   *
   * @return fails if a gateway node is running on the database (stop every node first)
   */
  public static Future<Void> init(Vertx vertx, StorageOptions storage) {
    return storage.isPostgres()
        ? PostgresDatabase.init(vertx, storage.postgres())
        : Future.succeededFuture();
  }

  /**
   * Okapi's {@code purgedatabase}: drops Okapi's tables and this gateway's with all their data;
   * Okapi's are created again, empty, as Okapi 6.1.5 and 7.0.x leave them; none of this gateway's
   * is left. Nothing to do for {@code inmemory}.
   *
   * @return fails if a gateway node is running on the database (stop every node first)
   */
  public static Future<Void> purge(Vertx vertx, StorageOptions storage) {
    return storage.isPostgres()
        ? PostgresDatabase.purge(vertx, storage.postgres())
        : Future.succeededFuture();
  }

  /**
   * @return modules, tenants, enabled modules, discovery and install jobs
   */
  public RegistryStore registry() {
    return registry;
  }

  /**
   * @return the timers changed through the timer API
   */
  public TimerStore timers() {
    return timers;
  }

  /**
   * @return Okapi's {@code /_/env}: the variables given to deployed modules
   */
  public EnvStore env() {
    return env;
  }

  /** Releases the database (and with it this node's writer mark). */
  public Future<Void> close() {
    return closer.get();
  }
}
