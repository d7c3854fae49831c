package io.okapigw.core.deployment;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.core.shareddata.AsyncMap;
import java.util.List;

/** {@code /_/env} in a Vert.x shared map: cluster-wide (one backup) when clustered. */
final class SharedEnvStore implements EnvStore {

  private static final String MAP = "okapigw.env";

  private final Vertx vertx;

  SharedEnvStore(Vertx vertx) {
    this.vertx = vertx;
  }

  private Future<AsyncMap<String, JsonObject>> map() {
    return vertx.sharedData().getAsyncMap(MAP);
  }

  @Override
  public Future<List<EnvEntry>> all() {
    return map()
        .compose(AsyncMap::values)
        .map(
            all ->
                all.stream()
                    .map(
                        j ->
                            new EnvEntry(
                                j.getString("name"),
                                j.getString("value"),
                                j.getString("description")))
                    .toList());
  }

  @Override
  public Future<Void> put(EnvEntry entry) {
    return map().compose(m -> m.put(entry.name(), entry.toJson()));
  }

  @Override
  public Future<Boolean> delete(String name) {
    return map().compose(m -> m.remove(name)).map(old -> old != null);
  }
}
