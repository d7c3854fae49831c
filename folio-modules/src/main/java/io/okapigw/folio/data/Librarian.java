package io.okapigw.folio.data;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;

/**
 * The staff user who checks items out and in: a mod-users record and a mod-permissions permission
 * user, so that an auth module that looks users and permissions up in those modules (FOLIO's
 * mod-authtoken; the authtoken module with {@code --user-lookup gateway}) finds them.
 *
 * @param id user id: {@code UUID.nameUUIDFromBytes("TENANT:USERNAME")}, the id the authtoken
 *     module's {@code --bootstrap} gives a user it creates
 * @param username login name
 * @param permissionUserId id of the user's mod-permissions record
 * @param permissions what the user holds
 */
public record Librarian(
    String id, String username, String permissionUserId, List<String> permissions) {

  /** What a librarian needs to check out and in through the gateway. */
  public static final List<String> PERMISSIONS =
      List.of("circulation.check-out-by-barcode.post", "circulation.check-in-by-barcode.post");

  /** The demo's {@code diku_admin} of tenant {@code diku}. */
  public static final Librarian DEMO = of("diku", "diku_admin");

  public Librarian {
    permissions = List.copyOf(permissions);
  }

  /**
   * @return the librarian {@code username} of {@code tenant}, holding {@link #PERMISSIONS}
   */
  public static Librarian of(String tenant, String username) {
    String id = uuid(tenant + ":" + username);
    return new Librarian(id, username, uuid("permissions:" + id), PERMISSIONS);
  }

  /**
   * @return the user record as mod-users stores it
   */
  public JsonObject toUserJson() {
    return new JsonObject()
        .put("id", id)
        .put("username", username)
        .put("active", true)
        .put("type", "staff")
        .put("personal", new JsonObject().put("lastName", username));
  }

  /**
   * @return the permission user as mod-permissions stores it
   */
  public JsonObject toPermissionUserJson() {
    return new JsonObject()
        .put("id", permissionUserId)
        .put("userId", id)
        .put("permissions", new JsonArray(permissions));
  }

  /**
   * @param servicePointId the service point the librarian works at
   * @return the librarian's service points as mod-inventory-storage's {@code /service-points-users}
   *     stores them
   */
  public JsonObject toServicePointsUserJson(String servicePointId) {
    return new JsonObject()
        .put("id", uuid("service-points-users:" + id))
        .put("userId", id)
        .put("servicePointsIds", new JsonArray().add(servicePointId))
        .put("defaultServicePointId", servicePointId);
  }

  private static String uuid(String name) {
    return UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8)).toString();
  }
}
