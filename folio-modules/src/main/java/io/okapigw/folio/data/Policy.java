package io.okapigw.folio.data;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * A generated request, overdue fine or lost item fee policy: the simulated modules only look them
 * up, so an id and a name (plus FOLIO's usual fields in JSON) are enough.
 *
 * @param id policy id
 * @param name display name
 */
public record Policy(String id, String name) {

  /**
   * @return a request policy record (mod-circulation-storage)
   */
  public JsonObject toRequestPolicyJson() {
    return new JsonObject()
        .put("id", id)
        .put("name", name)
        .put("requestTypes", new JsonArray().add("Hold").add("Page").add("Recall"));
  }

  /**
   * @return an overdue fine policy record (mod-feesfines)
   */
  public JsonObject toOverdueFinePolicyJson() {
    return new JsonObject()
        .put("id", id)
        .put("name", name)
        .put("overdueFine", new JsonObject().put("quantity", 0.25).put("intervalId", "day"))
        .put("countClosed", true)
        .put("maxOverdueFine", 10.0);
  }

  /**
   * @return a lost item fee policy record (mod-feesfines)
   */
  public JsonObject toLostItemPolicyJson() {
    return new JsonObject()
        .put("id", id)
        .put("name", name)
        .put(
            "itemAgedLostOverdue", new JsonObject().put("duration", 12).put("intervalId", "Months"))
        .put(
            "chargeAmountItem", new JsonObject().put("chargeType", "actualCost").put("amount", 0.0))
        .put("lostItemProcessingFee", 5.0);
  }
}
