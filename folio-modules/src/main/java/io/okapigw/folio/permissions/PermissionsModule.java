package io.okapigw.folio.permissions;

import static io.okapigw.folio.module.StoreEndpoints.collection;

import io.okapigw.folio.data.Librarian;
import io.okapigw.folio.module.CqlQuery;
import io.okapigw.folio.module.Endpoint;
import io.okapigw.folio.module.JsonStore;
import io.okapigw.folio.module.ModuleError;
import io.okapigw.folio.module.ModuleSpec;
import io.okapigw.folio.module.Reply;
import io.okapigw.folio.module.Routes;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * Simulated mod-permissions, the part an auth module reads: permission users by CQL ({@code
 * userId==ID}) and a permission user's permission names, as mod-permissions' {@code permissions}
 * 5.6 interface has them. It holds the librarian's; no permission sets are defined here, so {@code
 * expanded=true} answers the names as granted. Its descriptor names the interface {@code
 * permissions-users}: the authtoken module provides {@code permissions} itself (its own permission
 * API), and a tenant can enable only one provider of an interface.
 */
public final class PermissionsModule {

  private PermissionsModule() {}

  /**
   * @return the module serving {@code librarian}'s permissions
   */
  public static ModuleSpec spec(Librarian librarian) {
    JsonStore permissionUsers = new JsonStore("userId");
    permissionUsers.put(librarian.toPermissionUserJson());
    return ModuleSpec.of(
        "mod-permissions",
        new Routes()
            .on("GET", "/perms/users", collection(permissionUsers, "permissionUsers"))
            .on("GET", "/perms/users/{id}/permissions", permissionNames(permissionUsers)));
  }

  /**
   * {@code GET /perms/users/{id}/permissions[?indexField=userId][&full=true]}: {@code
   * {"permissionNames": [...], "totalRecords": n}}, with {@code full=true} each as {@code
   * {"permissionName": ...}} (what Stripes reads at login); 404 if there is no such permission
   * user.
   */
  private static Endpoint permissionNames(JsonStore permissionUsers) {
    return request -> {
      String id = request.pathParam("id");
      JsonObject user =
          "userId".equals(request.query("indexField"))
              ? permissionUsers
                  .search(CqlQuery.parse("userId==\"" + id + "\""), 0, 1)
                  .records()
                  .stream()
                  .findFirst()
                  .orElse(null)
              : permissionUsers.get(id).orElse(null);
      if (user == null) {
        return Future.failedFuture(ModuleError.notFound("permission user not found: " + id));
      }
      JsonArray names = user.getJsonArray("permissions", new JsonArray());
      if ("true".equals(request.query("full"))) {
        JsonArray full = new JsonArray();
        names.forEach(n -> full.add(new JsonObject().put("permissionName", n)));
        names = full;
      }
      return Future.succeededFuture(
          Reply.ok(
              new JsonObject().put("permissionNames", names).put("totalRecords", names.size())));
    };
  }
}
