package io.okapigw.folio.desk;

import static io.okapigw.folio.desk.Downstream.ITEMS;
import static io.okapigw.folio.desk.Downstream.SERVICE_POINT;
import static io.okapigw.folio.desk.Downstream.USERS;
import static io.okapigw.folio.module.CqlQuery.quote;

import io.okapigw.folio.module.Call;
import io.okapigw.folio.module.ModuleError;
import io.okapigw.folio.module.OkapiClient;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/** The lookups check-out and check-in share, with FOLIO's 422 answers for unknown barcodes. */
final class Lookups {

  private static final Pattern UUID =
      Pattern.compile(
          "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

  private Lookups() {}

  /**
   * @return the user; 422 naming the barcode if there is none
   */
  static Future<JsonObject> userByBarcode(OkapiClient okapi, String barcode) {
    return okapi
        .json(USERS, USERS.query("barcode==" + quote(barcode), 1))
        .map(
            page ->
                first(
                    page,
                    "users",
                    ModuleError.unprocessable(
                        "Could not find user with matching barcode " + barcode,
                        "userBarcode",
                        barcode)));
  }

  /**
   * @return the item; 422 naming the barcode if there is none
   */
  static Future<JsonObject> itemByBarcode(OkapiClient okapi, String barcode) {
    return okapi
        .json(ITEMS, ITEMS.query("barcode==" + quote(barcode), 1))
        .map(
            page ->
                first(
                    page,
                    "items",
                    ModuleError.unprocessable(
                        "No item with barcode " + barcode + " could be found",
                        "itemBarcode",
                        barcode)));
  }

  /**
   * @return the service point; 422 naming the id if there is none
   */
  static Future<JsonObject> servicePoint(OkapiClient okapi, String id) {
    return okapi
        .exchange(SERVICE_POINT, SERVICE_POINT.path(id), null)
        .map(
            answer -> {
              if (answer.status() == 404) {
                throw ModuleError.unprocessable(
                    "No service point with id " + id + " exists", "servicePointId", id);
              }
              if (!answer.ok()) {
                throw answer.unexpected();
              }
              return answer.json();
            });
  }

  /**
   * @return the record {@code call} reads by id; 502 if it is missing
   */
  static Future<JsonObject> byId(OkapiClient okapi, Call call, String id) {
    return okapi.json(call, call.path(id));
  }

  /**
   * @return the open loans (status.name Open) matching {@code field==value}
   */
  static Future<JsonObject> openLoans(OkapiClient okapi, String field, String value, int limit) {
    return okapi.json(
        Downstream.LOANS,
        Downstream.LOANS.query(
            field + "==" + quote(value) + " and status.name==" + quote("Open"), limit));
  }

  /**
   * @return the item's open requests (status Open*), in queue order
   */
  static Future<JsonObject> openRequests(OkapiClient okapi, String itemId) {
    return okapi.json(
        Downstream.REQUESTS,
        Downstream.REQUESTS.query(
            "itemId==" + quote(itemId) + " and status==\"Open*\" sortBy position", 100));
  }

  /**
   * @return the policy id the rules choose for this item and patron group
   */
  static Future<String> rule(
      OkapiClient okapi, PolicyKind kind, JsonObject item, String patronGroupId) {
    String path =
        kind.rulesCall().path()
            + "?item_type_id="
            + encode(item.getString("materialTypeId"))
            + "&loan_type_id="
            + encode(Items.loanTypeId(item))
            + "&patron_type_id="
            + encode(patronGroupId)
            + "&location_id="
            + encode(item.getString("effectiveLocationId"));
    return okapi
        .json(kind.rulesCall(), path)
        .map(answer -> string(answer, kind.idProperty(), kind.rulesCall()));
  }

  /**
   * @return the string property, or 502 naming the call that lacked it
   */
  static String string(JsonObject json, String property, Call from) {
    Object value = json.getValue(property);
    if (!(value instanceof String text)) {
      throw ModuleError.badGateway(
          from.method()
              + " "
              + from.pathPattern()
              + " (interface "
              + from.interfaceId()
              + ") answered without "
              + property);
    }
    return text;
  }

  /**
   * @return the collection's array, empty if absent
   */
  static JsonArray array(JsonObject page, String name) {
    return page.getJsonArray(name, new JsonArray());
  }

  /**
   * @return the collection's totalRecords
   */
  static int total(JsonObject page) {
    return page.getInteger("totalRecords", 0);
  }

  /**
   * @throws ModuleError 422 naming the field if {@code value} is not a UUID
   */
  static String requireUuid(String value, String field) {
    if (value == null || !UUID.matcher(value).matches()) {
      throw ModuleError.unprocessable(field + " must be a UUID, was " + value, field, value);
    }
    return value;
  }

  private static JsonObject first(JsonObject page, String name, ModuleError none) {
    JsonArray records = array(page, name);
    if (records.isEmpty()) {
      throw none;
    }
    return records.getJsonObject(0);
  }

  private static String encode(String value) {
    return URLEncoder.encode(value == null ? "" : value, StandardCharsets.UTF_8);
  }
}
