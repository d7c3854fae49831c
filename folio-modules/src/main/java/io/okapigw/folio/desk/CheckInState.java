package io.okapigw.folio.desk;

import io.okapigw.folio.module.ModuleError;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * Everything one check-in has looked up so far, filled phase by phase on the circulation module's
 * event loop.
 */
final class CheckInState {

  final String itemBarcode;
  final String servicePointId;
  final Instant checkInDate;
  JsonObject item;
  JsonObject servicePoint;
  JsonObject loan;
  JsonObject holdings;
  JsonObject location;
  JsonObject materialType;
  JsonObject loanType;
  JsonArray requests;
  JsonObject instance;
  JsonObject user;
  String noticePolicyId;
  JsonObject loanPolicy;
  JsonObject overdueFinePolicy;
  JsonObject lostItemPolicy;
  JsonArray accounts;
  JsonObject noticePolicy;
  JsonObject closedLoan;
  JsonObject updatedItem;

  private CheckInState(String itemBarcode, String servicePointId, Instant checkInDate) {
    this.itemBarcode = itemBarcode;
    this.servicePointId = servicePointId;
    this.checkInDate = checkInDate;
  }

  /**
   * @param body {@code {"itemBarcode", "servicePointId", "checkInDate"?}}
   * @param now the check-in date when the body has none
   * @throws ModuleError 422 naming a missing barcode, a bad service point id or date
   */
  static CheckInState from(JsonObject body, Instant now) {
    String item =
        CheckOutState.barcode(body, "itemBarcode", "Check in request must have an item barcode");
    Object servicePoint = body.getValue("servicePointId");
    String servicePointId =
        Lookups.requireUuid(servicePoint instanceof String s ? s : null, "servicePointId");
    return new CheckInState(item, servicePointId, date(body.getValue("checkInDate"), now));
  }

  private static Instant date(Object value, Instant now) {
    if (value == null) {
      return now;
    }
    try {
      return Instant.parse(value.toString());
    } catch (DateTimeParseException e) {
      throw ModuleError.unprocessable(
          "checkInDate must be an ISO-8601 instant, was " + value, "checkInDate", value.toString());
    }
  }

  String loanString(String property) {
    return Lookups.string(loan, property, Downstream.LOANS);
  }
}
