package io.okapigw.folio.inventory;

import static io.okapigw.folio.module.StoreEndpoints.byId;
import static io.okapigw.folio.module.StoreEndpoints.collection;

import io.okapigw.folio.data.CirculationData;
import io.okapigw.folio.data.Holdings;
import io.okapigw.folio.data.Instance;
import io.okapigw.folio.data.Item;
import io.okapigw.folio.data.Librarian;
import io.okapigw.folio.data.Location;
import io.okapigw.folio.data.Reference;
import io.okapigw.folio.data.ServicePoint;
import io.okapigw.folio.module.JsonStore;
import io.okapigw.folio.module.ModuleError;
import io.okapigw.folio.module.ModuleRequest;
import io.okapigw.folio.module.ModuleSpec;
import io.okapigw.folio.module.Reply;
import io.okapigw.folio.module.Routes;
import io.okapigw.folio.module.StoreEndpoints;
import io.okapigw.folio.module.TenantJobs;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.function.Function;

/**
 * Simulated mod-inventory-storage: items (readable by CQL, e.g. {@code barcode=="I000001"}, and
 * replaceable with PUT, which is how circulation changes an item's status), holdings records,
 * instances, locations, service points, the librarian's service points (as {@code
 * /service-points-users}, what mod-users-bl reads at login), material types and loan types.
 */
public final class InventoryStorageModule {

  private final JsonStore items = new JsonStore("barcode", "holdingsRecordId");

  private InventoryStorageModule() {}

  /**
   * @return the module serving the data's inventory
   */
  public static ModuleSpec spec(CirculationData data) {
    return new InventoryStorageModule().build(data);
  }

  private ModuleSpec build(CirculationData data) {
    items.putAll(json(data.items(), Item::toJson));
    Routes routes =
        new Routes()
            .on("GET", "/item-storage/items", collection(items, "items"))
            .on("GET", "/item-storage/items/{id}", byId(items, "item"))
            .on("PUT", "/item-storage/items/{id}", this::putItem);
    readOnly(
        routes,
        "/holdings-storage/holdings",
        "holdingsRecords",
        "holdings record",
        json(data.holdings(), Holdings::toJson));
    readOnly(
        routes,
        "/instance-storage/instances",
        "instances",
        "instance",
        json(data.instances(), Instance::toJson));
    readOnly(
        routes, "/locations", "locations", "location", json(data.locations(), Location::toJson));
    readOnly(
        routes,
        "/service-points",
        "servicepoints",
        "service point",
        json(data.servicePoints(), ServicePoint::toJson));
    readOnly(
        routes,
        "/service-points-users",
        "servicePointsUsers",
        "service points user",
        List.of(Librarian.DEMO.toServicePointsUserJson(data.servicePointId())));
    readOnly(
        routes,
        "/material-types",
        "mtypes",
        "material type",
        json(data.materialTypes(), Reference::toJson));
    readOnly(
        routes, "/loan-types", "loantypes", "loan type", json(data.loanTypes(), Reference::toJson));
    new TenantJobs(
            tenant ->
                "inventory of tenant "
                    + tenant
                    + ": the generated library, "
                    + items.size()
                    + " items")
        .mount(routes);
    return ModuleSpec.of("mod-inventory-storage", routes);
  }

  private Future<Reply> putItem(ModuleRequest request) {
    String id = request.pathParam("id");
    JsonObject item = StoreEndpoints.withId(request.json(), id);
    if (items.get(id).isEmpty()) {
      throw ModuleError.notFound("item not found: " + id);
    }
    if (item.getString("holdingsRecordId") == null) {
      throw ModuleError.unprocessable("must not be null", "holdingsRecordId", null);
    }
    items.put(item);
    return Future.succeededFuture(Reply.noContent());
  }

  private static void readOnly(
      Routes routes, String path, String collectionName, String what, List<JsonObject> records) {
    JsonStore store = new JsonStore();
    store.putAll(records);
    routes
        .on("GET", path, collection(store, collectionName))
        .on("GET", path + "/{id}", byId(store, what));
  }

  private static <T> List<JsonObject> json(List<T> records, Function<T, JsonObject> toJson) {
    return records.stream().map(toJson).toList();
  }
}
