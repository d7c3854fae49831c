package io.okapigw.folio.data;

import io.vertx.core.json.JsonObject;

/**
 * A generated holdings record.
 *
 * @param id holdings record id
 * @param hrid human-readable id
 * @param instanceId id of its instance
 * @param permanentLocationId id of its location
 * @param callNumber shelf call number
 */
public record Holdings(
    String id, String hrid, String instanceId, String permanentLocationId, String callNumber) {

  /**
   * @return the holdings record as mod-inventory-storage stores it
   */
  public JsonObject toJson() {
    return new JsonObject()
        .put("id", id)
        .put("_version", 1)
        .put("hrid", hrid)
        .put("instanceId", instanceId)
        .put("permanentLocationId", permanentLocationId)
        .put("effectiveLocationId", permanentLocationId)
        .put("callNumber", callNumber);
  }
}
