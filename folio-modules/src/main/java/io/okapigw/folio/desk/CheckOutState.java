package io.okapigw.folio.desk;

import io.okapigw.folio.module.ModuleError;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.EnumMap;
import java.util.Map;

/**
 * Everything one check-out has looked up so far. Filled phase by phase; all callbacks run on the
 * circulation module's event loop, so plain fields are safe.
 */
final class CheckOutState {

  final String itemBarcode;
  final String userBarcode;
  final String servicePointId;
  JsonObject user;
  JsonObject item;
  JsonObject servicePoint;
  JsonObject patronGroup;
  int proxies;
  JsonArray manualBlocks;
  JsonArray automatedBlocks;
  int userOpenLoans;
  JsonObject holdings;
  JsonObject effectiveLocation;
  JsonObject permanentLocation;
  JsonObject materialType;
  JsonObject loanType;
  int itemOpenLoans;
  JsonArray requests;
  JsonObject instance;
  final Map<PolicyKind, String> policyIds = new EnumMap<>(PolicyKind.class);
  final Map<PolicyKind, JsonObject> policies = new EnumMap<>(PolicyKind.class);
  JsonObject loan;

  private CheckOutState(String itemBarcode, String userBarcode, String servicePointId) {
    this.itemBarcode = itemBarcode;
    this.userBarcode = userBarcode;
    this.servicePointId = servicePointId;
  }

  /**
   * @param body {@code {"itemBarcode", "userBarcode", "servicePointId"}}
   * @throws ModuleError 422 naming a missing barcode or a service point id that is no UUID
   */
  static CheckOutState from(JsonObject body) {
    String item = barcode(body, "itemBarcode", "Check out request must have an item barcode");
    String user = barcode(body, "userBarcode", "Check out request must have a user barcode");
    Object servicePoint = body.getValue("servicePointId");
    return new CheckOutState(
        item,
        user,
        Lookups.requireUuid(servicePoint instanceof String s ? s : null, "servicePointId"));
  }

  static String barcode(JsonObject body, String field, String message) {
    Object value = body.getValue(field);
    if (!(value instanceof String text) || text.isBlank()) {
      throw ModuleError.unprocessable(message, field, value == null ? null : value.toString());
    }
    return text;
  }

  String userId() {
    return user.getString("id");
  }

  String itemId() {
    return item.getString("id");
  }
}
