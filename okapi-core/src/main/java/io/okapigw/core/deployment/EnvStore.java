package io.okapigw.core.deployment;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.List;

/**
 * Where {@code /_/env} lives: where the registry is, PostgreSQL (Okapi's {@code env} table, see the
 * {@code storage} package) or Vert.x shared data (cluster-wide when clustered, else this JVM).
 */
public interface EnvStore {

  /**
   * @return a store in Vert.x shared data
   */
  static EnvStore shared(Vertx vertx) {
    return new SharedEnvStore(vertx);
  }

  /**
   * @return every entry, in no particular order
   */
  Future<List<EnvEntry>> all();

  /** Stores an entry, replacing the one of its name. */
  Future<Void> put(EnvEntry entry);

  /**
   * @return whether an entry was removed
   */
  Future<Boolean> delete(String name);
}
