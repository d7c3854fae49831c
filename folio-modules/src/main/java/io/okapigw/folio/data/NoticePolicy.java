package io.okapigw.folio.data;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * A generated patron notice policy sending a notice on check-out and on check-in.
 *
 * @param id policy id
 * @param name display name
 * @param checkOutTemplateId template of the check-out notice
 * @param checkInTemplateId template of the check-in notice
 */
public record NoticePolicy(
    String id, String name, String checkOutTemplateId, String checkInTemplateId) {

  /**
   * @return the policy as mod-circulation-storage stores it
   */
  public JsonObject toJson() {
    return new JsonObject()
        .put("id", id)
        .put("name", name)
        .put("active", true)
        .put(
            "loanNotices",
            new JsonArray()
                .add(notice(checkOutTemplateId, "Check out"))
                .add(notice(checkInTemplateId, "Check in")));
  }

  private static JsonObject notice(String templateId, String sendWhen) {
    return new JsonObject()
        .put("templateId", templateId)
        .put("format", "Email")
        .put("realTime", true)
        .put("sendOptions", new JsonObject().put("sendWhen", sendWhen));
  }
}
