package io.okapigw.folio.module;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/** The read endpoints every storage module has: a record by id, and a CQL-queried collection. */
public final class StoreEndpoints {

  /** Default page size, as in FOLIO. */
  public static final int DEFAULT_LIMIT = 10;

  private static final int MAX_LIMIT = 10_000;

  private StoreEndpoints() {}

  /**
   * {@code GET /things/{id}}: 200 with the record, 404 if unknown.
   *
   * @param what what a record is, for the 404 message
   */
  public static Endpoint byId(JsonStore store, String what) {
    return request -> {
      String id = request.pathParam("id");
      return Future.succeededFuture(
          Reply.ok(
              store.get(id).orElseThrow(() -> ModuleError.notFound(what + " not found: " + id))));
    };
  }

  /**
   * {@code GET /things?query=CQL&offset=&limit=}: 200 with {@code {"<name>": [...], "totalRecords":
   * n}}; 400 for bad CQL or paging.
   *
   * @param name the collection's property name, e.g. {@code users}
   */
  public static Endpoint collection(JsonStore store, String name) {
    return request -> Future.succeededFuture(Reply.ok(page(request, store).toJson(name)));
  }

  /**
   * @return the page the request's query, offset and limit select
   */
  public static JsonStore.Page page(ModuleRequest request, JsonStore store) {
    CqlQuery query = CqlQuery.parse(request.query("query"));
    int offset = request.queryInt("offset", 0, 0, Integer.MAX_VALUE);
    int limit = request.queryInt("limit", DEFAULT_LIMIT, 0, MAX_LIMIT);
    return store.search(query, offset, limit);
  }

  /**
   * @return the record with its {@code id} set to {@code id}; 400 if it names another id
   */
  public static JsonObject withId(JsonObject record, String id) {
    Object given = record.getValue("id");
    if (given != null && !id.equals(given)) {
      throw ModuleError.badRequest(
          "id in the body (" + given + ") differs from the path (" + id + ")");
    }
    return record.put("id", id);
  }
}
