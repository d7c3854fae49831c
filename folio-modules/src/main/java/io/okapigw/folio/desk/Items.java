package io.okapigw.folio.desk;

import io.vertx.core.json.JsonObject;

/** What circulation reads from an item record. */
final class Items {

  static final String CHECKED_OUT = "Checked out";
  static final String AVAILABLE = "Available";

  private Items() {}

  /**
   * @return the loan type that applies: the temporary one if set, else the permanent one
   */
  static String loanTypeId(JsonObject item) {
    return item.getString("temporaryLoanTypeId", item.getString("permanentLoanTypeId"));
  }

  /**
   * @return the item's own permanent location, else its effective one
   */
  static String permanentLocationId(JsonObject item) {
    return item.getString("permanentLocationId", item.getString("effectiveLocationId"));
  }

  /**
   * @return the item's status name
   */
  static String status(JsonObject item) {
    JsonObject status = item.getJsonObject("status", new JsonObject());
    return status.getString("name", "");
  }

  /**
   * @return a copy of the item with another status, dated {@code date}
   */
  static JsonObject withStatus(JsonObject item, String status, String date) {
    return item.copy().put("status", new JsonObject().put("name", status).put("date", date));
  }
}
