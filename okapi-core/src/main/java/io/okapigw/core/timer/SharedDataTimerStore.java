package io.okapigw.core.timer;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.core.shareddata.AsyncMap;
import java.util.List;

/** Changed timers in a Vert.x async map: cluster-wide (one backup) when clustered. */
final class SharedDataTimerStore implements TimerStore {

  static final String MAP = "okapigw.timers.patches";

  private final AsyncMap<String, JsonObject> map;

  private SharedDataTimerStore(AsyncMap<String, JsonObject> map) {
    this.map = map;
  }

  static Future<TimerStore> create(Vertx vertx) {
    return vertx.sharedData().<String, JsonObject>getAsyncMap(MAP).map(SharedDataTimerStore::new);
  }

  @Override
  public Future<List<Patch>> all() {
    return map.values()
        .map(
            values ->
                values.stream()
                    .map(
                        json ->
                            new Patch(
                                json.getString("tenant"),
                                json.getString("id"),
                                json.getJsonObject("routingEntry")))
                    .toList());
  }

  @Override
  public Future<Void> put(Patch patch) {
    return map.put(
        key(patch.tenant(), patch.id()),
        new JsonObject()
            .put("tenant", patch.tenant())
            .put("id", patch.id())
            .put("routingEntry", patch.entry()));
  }

  @Override
  public Future<Void> delete(String tenant, String id) {
    return map.remove(key(tenant, id)).mapEmpty();
  }

  @Override
  public Future<Void> close() {
    return Future.succeededFuture();
  }

  private static String key(String tenant, String id) {
    return tenant + "/" + id;
  }
}
