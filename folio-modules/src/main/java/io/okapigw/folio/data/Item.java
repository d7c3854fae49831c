package io.okapigw.folio.data;

import io.vertx.core.json.JsonObject;

/**
 * A generated item (a mod-inventory-storage item), initially Available.
 *
 * @param id item id
 * @param barcode the item's barcode, {@code I000000} style
 * @param hrid human-readable id
 * @param holdingsRecordId id of its holdings record
 * @param materialTypeId id of its material type
 * @param permanentLoanTypeId id of its loan type
 * @param permanentLocationId id of the item's own location, or null to inherit the holdings'
 * @param effectiveLocationId id of its effective location
 */
public record Item(
    String id,
    String barcode,
    String hrid,
    String holdingsRecordId,
    String materialTypeId,
    String permanentLoanTypeId,
    String permanentLocationId,
    String effectiveLocationId) {

  /**
   * @return the item record as mod-inventory-storage stores it
   */
  public JsonObject toJson() {
    JsonObject json =
        new JsonObject()
            .put("id", id)
            .put("_version", 1)
            .put("hrid", hrid)
            .put("barcode", barcode)
            .put("holdingsRecordId", holdingsRecordId)
            .put("status", new JsonObject().put("name", "Available"))
            .put("materialTypeId", materialTypeId)
            .put("permanentLoanTypeId", permanentLoanTypeId)
            .put("effectiveLocationId", effectiveLocationId);
    return permanentLocationId == null
        ? json
        : json.put("permanentLocationId", permanentLocationId);
  }
}
