package io.okapigw.core.deployment;

import io.okapigw.core.http.HttpError;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.Comparator;
import java.util.List;

/**
 * Okapi's {@code /_/env}: variables every module a node deploys gets in its environment, over its
 * launch descriptor's {@code env} ({@code DB_HOST}, {@code KAFKA_HOST}, {@code OKAPI_URL}, ...). A
 * change applies to the modules deployed after it.
 */
public final class Environment {

  private final EnvStore store;

  public Environment(EnvStore store) {
    this.store = store;
  }

  /**
   * @return every entry, ordered by name (as Okapi lists them)
   */
  public Future<List<EnvEntry>> list() {
    return store
        .all()
        .map(all -> all.stream().sorted(Comparator.comparing(EnvEntry::name)).toList());
  }

  /**
   * @return the entry; 404 naming it if none
   */
  public Future<EnvEntry> get(String name) {
    return list()
        .map(
            all ->
                all.stream()
                    .filter(e -> e.name().equals(name))
                    .findFirst()
                    .orElseThrow(() -> HttpError.notFound(name)));
  }

  /**
   * Sets a variable (a new one, or a new value for one of that name).
   *
   * @return the entry as stored; 400 if the body is not an entry
   */
  public Future<EnvEntry> put(JsonObject json) {
    EnvEntry entry = EnvEntry.fromJson(json);
    return store.put(entry).map(entry);
  }

  /** Removes a variable; 404 naming it if none. */
  public Future<Void> delete(String name) {
    return store
        .delete(name)
        .map(
            removed -> {
              if (!removed) {
                throw HttpError.notFound(name);
              }
              return null;
            });
  }
}
