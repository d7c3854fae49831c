package io.okapigw.folio.desk;

import static io.okapigw.folio.module.ModuleError.error;

import io.okapigw.folio.module.ModuleError;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/** Check-out's business rules, each failing with FOLIO's 422 error shape. */
final class CheckOutChecks {

  private CheckOutChecks() {}

  /** Patron blocks, inactive patron, item already on loan, item awaiting another's pickup. */
  static Future<Void> patronAndItem(CheckOutState s) {
    List<JsonObject> errors = new ArrayList<>();
    if (!s.user.getBoolean("active", true)) {
      errors.add(
          error(
              "Cannot check out to inactive user " + s.userBarcode, "userBarcode", s.userBarcode));
    }
    blocks(s, errors);
    if (s.itemOpenLoans > 0 || Items.CHECKED_OUT.equals(Items.status(s.item))) {
      errors.add(alreadyCheckedOut(s));
    }
    JsonObject next = s.requests.isEmpty() ? null : s.requests.getJsonObject(0);
    if (next != null
        && "Open - Awaiting pickup".equals(next.getString("status"))
        && !s.userId().equals(next.getString("requesterId"))) {
      errors.add(
          error(
              "Item (barcode " + s.itemBarcode + ") is awaiting pickup by another " + "patron",
              "itemBarcode",
              s.itemBarcode));
    }
    return outcome(errors);
  }

  /** The loan policy must allow loans and the patron must be under its item limit. */
  static Future<Void> loanPolicy(CheckOutState s) {
    JsonObject policy = s.policies.get(PolicyKind.LOAN);
    List<JsonObject> errors = new ArrayList<>();
    if (!policy.getBoolean("loanable", true)) {
      errors.add(
          error(
              "Item (barcode " + s.itemBarcode + ") is not loanable",
              "loanPolicyName",
              policy.getString("name")));
    }
    Integer limit = policy.getJsonObject("loansPolicy", new JsonObject()).getInteger("itemLimit");
    if (limit != null && s.userOpenLoans >= limit) {
      errors.add(
          error(
              "Patron has reached maximum limit of "
                  + limit
                  + " items for loan policy "
                  + policy.getString("name"),
              "itemLimit",
              limit.toString()));
    }
    return outcome(errors);
  }

  /**
   * @return the error for an item that has an open loan already
   */
  static JsonObject alreadyCheckedOut(CheckOutState s) {
    return error(
        "Item (barcode " + s.itemBarcode + ") is already checked out",
        "itemBarcode",
        s.itemBarcode);
  }

  private static void blocks(CheckOutState s, List<JsonObject> errors) {
    s.manualBlocks.stream()
        .map(JsonObject.class::cast)
        .filter(block -> block.getBoolean("borrowing", false))
        .forEach(block -> errors.add(blocked(s, block.getString("desc"))));
    s.automatedBlocks.stream()
        .map(JsonObject.class::cast)
        .filter(block -> block.getBoolean("blockBorrowing", false))
        .forEach(block -> errors.add(blocked(s, block.getString("message"))));
  }

  private static JsonObject blocked(CheckOutState s, String reason) {
    return error(
        "Patron (barcode " + s.userBarcode + ") is blocked from borrowing: " + reason,
        "userBarcode",
        s.userBarcode);
  }

  private static Future<Void> outcome(List<JsonObject> errors) {
    return errors.isEmpty()
        ? Future.succeededFuture()
        : Future.failedFuture(new ModuleError(422, errors));
  }
}
