package io.okapigw.folio.data;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * A generated instance (bibliographic record).
 *
 * @param id instance id
 * @param hrid human-readable id
 * @param title title
 * @param contributor primary contributor's name
 */
public record Instance(String id, String hrid, String title, String contributor) {

  /**
   * @return the instance record as mod-inventory-storage stores it
   */
  public JsonObject toJson() {
    return new JsonObject()
        .put("id", id)
        .put("_version", 1)
        .put("hrid", hrid)
        .put("source", "FOLIO")
        .put("title", title)
        .put(
            "contributors",
            new JsonArray().add(new JsonObject().put("name", contributor).put("primary", true)));
  }
}
