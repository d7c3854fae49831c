package io.okapigw.folio.data;

import io.vertx.core.json.JsonObject;

/**
 * A generated service point (circulation desk).
 *
 * @param id service point id
 * @param name display name
 * @param code short code
 */
public record ServicePoint(String id, String name, String code) {

  /**
   * @return the service point record as mod-inventory-storage stores it
   */
  public JsonObject toJson() {
    return new JsonObject()
        .put("id", id)
        .put("name", name)
        .put("code", code)
        .put("discoveryDisplayName", name)
        .put("pickupLocation", true)
        .put(
            "holdShelfExpiryPeriod",
            new JsonObject().put("duration", 3).put("intervalId", "Weeks"));
  }
}
