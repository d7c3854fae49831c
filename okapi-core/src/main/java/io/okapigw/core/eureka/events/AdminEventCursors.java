package io.okapigw.core.eureka.events;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.shareddata.AsyncMap;
import java.util.HashSet;
import java.util.Set;

/**
 * Where each realm's admin events have been read to, kept in a cluster-wide map (one backup), so
 * that a reader taking over from one that died or left goes on from there: no event is lost, none
 * is applied twice but those the old reader applied and had not yet recorded.
 */
final class AdminEventCursors {

  private static final String MAP = "okapigw.eureka.admin-events";

  /** A realm's position: the newest event time read and the ids read at that time. */
  static final class Cursor {
    long time;
    Set<String> seenAtTime = new HashSet<>();

    Cursor(long time) {
      this.time = time;
    }

    boolean isNew(JsonObject event) {
      long at = event.getLong("time", 0L);
      return at > time || at == time && !seenAtTime.contains(event.getString("id"));
    }

    /**
     * Moves past the events read.
     *
     * @return whether it moved
     */
    boolean advance(JsonArray events) {
      boolean moved = false;
      for (Object e : events) {
        JsonObject event = (JsonObject) e;
        long at = event.getLong("time", 0L);
        if (at > time) {
          time = at;
          seenAtTime = new HashSet<>();
        }
        if (at == time) {
          moved |= seenAtTime.add(event.getString("id"));
        }
      }
      return moved;
    }

    String encode() {
      return new JsonObject()
          .put("time", time)
          .put("seen", new JsonArray(java.util.List.copyOf(seenAtTime)))
          .encode();
    }

    static Cursor decode(String json) {
      JsonObject o = new JsonObject(json);
      Cursor cursor = new Cursor(o.getLong("time"));
      o.getJsonArray("seen", new JsonArray()).forEach(id -> cursor.seenAtTime.add((String) id));
      return cursor;
    }
  }

  private final Vertx vertx;

  AdminEventCursors(Vertx vertx) {
    this.vertx = vertx;
  }

  /**
   * @return the realm's position, or null if no reader has read it yet
   */
  Future<Cursor> get(String tenant) {
    return map().compose(m -> m.get(tenant)).map(s -> s == null ? null : Cursor.decode(s));
  }

  Future<Void> put(String tenant, Cursor cursor) {
    return map().compose(m -> m.put(tenant, cursor.encode()));
  }

  private Future<AsyncMap<String, String>> map() {
    return vertx.sharedData().getAsyncMap(MAP);
  }
}
