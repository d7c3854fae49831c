package io.okapigw.authtoken.perms;

import io.okapigw.authtoken.gateway.GatewayNotifier;
import io.okapigw.authtoken.http.ApiException;
import io.okapigw.authtoken.http.JsonBody;
import io.okapigw.authtoken.http.OkapiHeaders;
import io.okapigw.authtoken.store.AuthStore;
import io.okapigw.authtoken.store.PermissionSetRecord;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code POST /_/tenantPermissions}, Okapi's system interface {@code _tenantPermissions} 2.0:
 * {@code {"moduleId", "perms": [{"permissionName", "displayName", "subPermissions"}]}} with {@code
 * X-Okapi-Tenant}. Replaces the sets that module posted before for the tenant (an empty list
 * removes them); other fields are ignored. Effective at once; the gateway is told to drop the
 * tenant's cached decisions.
 */
public final class TenantPermissionsHandler {
  private final AuthStore store;
  private final PermissionSets permissionSets;
  private final GatewayNotifier gateway;

  /**
   * @param store the store
   * @param permissionSets the tenants' permission sets
   * @param gateway gateway invalidation
   */
  public TenantPermissionsHandler(
      AuthStore store, PermissionSets permissionSets, GatewayNotifier gateway) {
    this.store = store;
    this.permissionSets = permissionSets;
    this.gateway = gateway;
  }

  /**
   * @param router router to add the route to @param body body handler with a (larger) size limit
   */
  public void mount(Router router, BodyHandler body) {
    router.post("/_/tenantPermissions").handler(body).handler(this::post);
  }

  private void post(RoutingContext ctx) {
    String tenant = OkapiHeaders.tenant(ctx.request().headers());
    JsonBody body = JsonBody.of(ctx);
    String moduleId = body.requiredString("moduleId", JsonBody.MAX_NAME_LENGTH);
    List<PermissionSetRecord> sets = sets(moduleId, body.json().getValue("perms"));
    store
        .replacePermissionSets(tenant, moduleId, sets)
        .compose(
            v -> {
              permissionSets.invalidate(tenant);
              return gateway.invalidateTenant(tenant);
            })
        .onSuccess(
            v ->
                ctx.response()
                    .setStatusCode(201)
                    .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                    .end(body.json().encode()))
        .onFailure(ctx::fail);
  }

  /** Checks the perms and merges entries of the same name. */
  static List<PermissionSetRecord> sets(String moduleId, Object perms) {
    if (perms == null) {
      return List.of();
    }
    if (!(perms instanceof JsonArray array) || array.size() > JsonBody.MAX_LIST_SIZE) {
      throw ApiException.unprocessable(
          "perms must be an array of at most " + JsonBody.MAX_LIST_SIZE + " entries");
    }
    Map<String, Set<String>> merged = new LinkedHashMap<>();
    for (Object item : array) {
      if (!(item instanceof JsonObject perm)) {
        throw ApiException.unprocessable("perms must contain objects");
      }
      JsonBody entry = JsonBody.wrap(perm);
      List<String> subs = entry.optionalNames("subPermissions");
      merged
          .computeIfAbsent(
              entry.requiredString("permissionName", JsonBody.MAX_NAME_LENGTH),
              k -> new LinkedHashSet<>())
          .addAll(subs == null ? List.of() : subs);
    }
    List<PermissionSetRecord> sets = new ArrayList<>(merged.size());
    merged.forEach(
        (name, subs) -> sets.add(new PermissionSetRecord(moduleId, name, List.copyOf(subs))));
    return sets;
  }
}
