package io.okapigw.perf.circulation.permissions;

import static io.okapigw.perf.circulation.module.StoreEndpoints.collection;

import io.okapigw.perf.circulation.data.Librarian;
import io.okapigw.perf.circulation.module.CqlQuery;
import io.okapigw.perf.circulation.module.Endpoint;
import io.okapigw.perf.circulation.module.JsonStore;
import io.okapigw.perf.circulation.module.ModuleError;
import io.okapigw.perf.circulation.module.ModuleSpec;
import io.okapigw.perf.circulation.module.Reply;
import io.okapigw.perf.circulation.module.Routes;
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
   * {@code GET /perms/users/{id}/permissions[?indexField=userId]}: {@code {"permissionNames":
   * [...], "totalRecords": n}}; 404 if there is no such permission user.
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
      return Future.succeededFuture(
          Reply.ok(
              new JsonObject().put("permissionNames", names).put("totalRecords", names.size())));
    };
  }
}
