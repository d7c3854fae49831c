package io.okapigw.folio.data;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * A generated shelving location.
 *
 * @param id location id
 * @param name display name
 * @param code location code
 * @param institutionId id of its institution
 * @param campusId id of its campus
 * @param libraryId id of its library
 * @param primaryServicePointId id of the service point serving it
 */
public record Location(
    String id,
    String name,
    String code,
    String institutionId,
    String campusId,
    String libraryId,
    String primaryServicePointId) {

  /**
   * @return the location record as mod-inventory-storage stores it
   */
  public JsonObject toJson() {
    return new JsonObject()
        .put("id", id)
        .put("name", name)
        .put("code", code)
        .put("isActive", true)
        .put("institutionId", institutionId)
        .put("campusId", campusId)
        .put("libraryId", libraryId)
        .put("primaryServicePoint", primaryServicePointId)
        .put("servicePointIds", new JsonArray().add(primaryServicePointId));
  }
}
