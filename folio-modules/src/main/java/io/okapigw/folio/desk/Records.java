package io.okapigw.folio.desk;

import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.UUID;

/** The records circulation writes: loans, notices, events, sessions, check-ins. */
final class Records {

  private Records() {}

  /**
   * @return a new open loan for the check-out, due after the loan policy's period
   */
  static JsonObject newLoan(CheckOutState s, Instant now) {
    JsonObject period =
        s.policies
            .get(PolicyKind.LOAN)
            .getJsonObject("loansPolicy", new JsonObject())
            .getJsonObject("period", new JsonObject());
    long days =
        "Weeks".equals(period.getString("intervalId"))
            ? 7L * period.getInteger("duration", 3)
            : period.getInteger("duration", 21);
    return new JsonObject()
        .put("id", UUID.randomUUID().toString())
        .put("userId", s.userId())
        .put("itemId", s.itemId())
        .put("itemEffectiveLocationIdAtCheckOut", s.item.getString("effectiveLocationId"))
        .put("status", new JsonObject().put("name", "Open"))
        .put("loanDate", now.toString())
        .put("dueDate", now.plusSeconds(days * 24 * 3600).toString())
        .put("action", "checkedout")
        .put("checkoutServicePointId", s.servicePointId)
        .put("patronGroupIdAtCheckout", s.user.getString("patronGroup"))
        .put("loanPolicyId", s.policyIds.get(PolicyKind.LOAN))
        .put("overdueFinePolicyId", s.policyIds.get(PolicyKind.OVERDUE_FINE))
        .put("lostItemPolicyId", s.policyIds.get(PolicyKind.LOST_ITEM))
        .put("renewalCount", 0);
  }

  /**
   * @return the check-out answer: the loan with item, borrower and policy summaries
   */
  static JsonObject checkOutReply(CheckOutState s) {
    JsonObject personal = s.user.getJsonObject("personal", new JsonObject());
    return s.loan
        .copy()
        .put(
            "item",
            new JsonObject()
                .put("id", s.itemId())
                .put("barcode", s.itemBarcode)
                .put("title", s.instance.getString("title"))
                .put("callNumber", s.holdings.getString("callNumber"))
                .put("status", new JsonObject().put("name", Items.CHECKED_OUT))
                .put("materialType", new JsonObject().put("name", s.materialType.getString("name")))
                .put(
                    "location",
                    new JsonObject().put("name", s.effectiveLocation.getString("name"))))
        .put(
            "borrower",
            new JsonObject()
                .put("barcode", s.userBarcode)
                .put("firstName", personal.getString("firstName"))
                .put("lastName", personal.getString("lastName")))
        .put(
            "patronGroupAtCheckout",
            new JsonObject()
                .put("id", s.patronGroup.getString("id"))
                .put("name", s.patronGroup.getString("group")))
        .put(
            "loanPolicy",
            new JsonObject().put("name", s.policies.get(PolicyKind.LOAN).getString("name")));
  }

  /**
   * @return the loan closed by a check-in
   */
  static JsonObject closedLoan(JsonObject loan, String servicePointId, Instant now) {
    return loan.copy()
        .put("status", new JsonObject().put("name", "Closed"))
        .put("action", "checkedin")
        .put("returnDate", now.toString())
        .put("systemReturnDate", now.toString())
        .put("checkinServicePointId", servicePointId);
  }

  /**
   * @return a real-time patron notice using the template of the notice policy for the event
   */
  /**
   * @return a notice's context: the loan, and the item by barcode and title
   */
  static JsonObject noticeContext(JsonObject loan, String itemBarcode, String title) {
    return new JsonObject()
        .put("loan", loan)
        .put("item", new JsonObject().put("barcode", itemBarcode).put("title", title));
  }

  static JsonObject notice(
      JsonObject noticePolicy, String sendWhen, String recipientId, JsonObject context) {
    String templateId =
        noticePolicy.getJsonArray("loanNotices").stream()
            .map(JsonObject.class::cast)
            .filter(n -> sendWhen.equals(n.getJsonObject("sendOptions").getString("sendWhen")))
            .map(n -> n.getString("templateId"))
            .findFirst()
            .orElse(null);
    return new JsonObject()
        .put("recipientId", recipientId)
        .put("templateId", templateId)
        .put("deliveryChannel", "email")
        .put("outputFormat", "text/html")
        .put("lang", "en")
        .put("context", context);
  }

  /**
   * @return a mod-pubsub event
   */
  static JsonObject event(String eventType, JsonObject payload, String tenant) {
    return new JsonObject()
        .put("id", UUID.randomUUID().toString())
        .put("eventType", eventType)
        .put(
            "eventMetadata",
            new JsonObject()
                .put("tenantId", tenant)
                .put("eventTTL", 1)
                .put("publishedBy", "mod-circulation"))
        .put("eventPayload", payload.encode());
  }

  /**
   * @return a patron action session record
   */
  static JsonObject session(String patronId, String loanId, String actionType) {
    return new JsonObject()
        .put("id", UUID.randomUUID().toString())
        .put("patronId", patronId)
        .put("loanId", loanId)
        .put("actionType", actionType);
  }

  /**
   * @return a check-in record (check-in-storage)
   */
  static JsonObject checkIn(JsonObject item, String servicePointId, String userId, Instant now) {
    return new JsonObject()
        .put("id", UUID.randomUUID().toString())
        .put("occurredDateTime", now.toString())
        .put("itemId", item.getString("id"))
        .put("itemStatusPriorToCheckIn", Items.status(item))
        .put("checkInServicePointId", servicePointId)
        .put("performedByUserId", userId);
  }
}
