package io.okapigw.folio.data;

import io.vertx.core.json.JsonObject;

/**
 * A generated reference record with an id and a name: material type, loan type or patron group.
 *
 * @param id record id
 * @param name its name
 */
public record Reference(String id, String name) {

  /**
   * @return {@code {"id", "name"}}: a material type or loan type record
   */
  public JsonObject toJson() {
    return new JsonObject().put("id", id).put("name", name);
  }

  /**
   * @return {@code {"id", "group", "desc"}}: a mod-users patron group record
   */
  public JsonObject toGroupJson() {
    return new JsonObject().put("id", id).put("group", name).put("desc", name + " patrons");
  }
}
