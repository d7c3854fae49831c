package io.okapigw.authtoken;

import io.okapigw.authtoken.store.AuthStore;
import io.okapigw.authtoken.store.json.JsonAuthStore;
import io.okapigw.authtoken.store.pg.PgAuthStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.file.Path;

/**
 * Opens the store the {@code store} setting names: the choice between the implementations is made
 * here, at the top, so that {@link AuthStore} and the features using it know neither.
 */
public final class Stores {
  private static final String JSON = "json:";

  private Stores() {}

  /**
   * Opens a store, creating its files or schema.
   *
   * @param vertx Vert.x
   * @param spec {@code json:DIR} or {@code postgresql://user:pass@host:port/db}
   * @return the open store; failed if it cannot be opened or {@code spec} names neither kind
   */
  public static Future<AuthStore> open(Vertx vertx, String spec) {
    if (spec.startsWith(JSON)) {
      return JsonAuthStore.open(vertx, Path.of(spec.substring(JSON.length())));
    }
    if (spec.startsWith("postgresql://") || spec.startsWith("postgres://")) {
      return PgAuthStore.open(vertx, spec);
    }
    return Future.failedFuture(
        new IllegalArgumentException("--store must be json:DIR or postgresql://..."));
  }
}
