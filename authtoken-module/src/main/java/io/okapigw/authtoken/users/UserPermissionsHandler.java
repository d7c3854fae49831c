package io.okapigw.authtoken.users;

import io.okapigw.authtoken.http.ApiException;
import io.okapigw.authtoken.http.JsonBody;
import io.okapigw.authtoken.http.OkapiHeaders;
import io.okapigw.authtoken.perms.Operators;
import io.okapigw.authtoken.perms.PermissionSets;
import io.vertx.core.Future;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.TreeSet;

/**
 * {@code GET /perms/users/{id}} ({@code {"userId","permissions"}}, plus {@code
 * "expandedPermissions"} with {@code ?expanded=true}) and {@code PUT /perms/users/{id}/permissions}
 * (a JSON array of names, or {@code {"permissions": [...]}}), effective at once, giving the user
 * only what the caller may grant ({@link io.okapigw.authtoken.perms.AssignRules}).
 */
public final class UserPermissionsHandler {
  private final UserService users;
  private final PermissionSets permissionSets;
  private final Operators operators;

  /**
   * @param users user logic
   * @param permissionSets the tenants' permission sets
   * @param operators who the caller is, from its token
   */
  public UserPermissionsHandler(
      UserService users, PermissionSets permissionSets, Operators operators) {
    this.users = users;
    this.permissionSets = permissionSets;
    this.operators = operators;
  }

  /**
   * @param router router to add the routes to @param body body handler with a size limit
   */
  public void mount(Router router, BodyHandler body) {
    router.get("/perms/users/:id").handler(this::get);
    router.put("/perms/users/:id/permissions").handler(body).handler(this::put);
  }

  private void get(RoutingContext ctx) {
    String tenant = OkapiHeaders.tenant(ctx.request().headers());
    String id = UsersHandler.checkId(ctx.pathParam("id"));
    boolean expanded = "true".equals(ctx.queryParams().get("expanded"));
    users
        .find(tenant, id)
        .compose(
            user ->
                user == null
                    ? Future.failedFuture(ApiException.notFound("user not found: " + id))
                    : answer(tenant, user.permissions(), expanded))
        .onSuccess(
            json ->
                ctx.response()
                    .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                    .end(json.put("userId", id).encode()))
        .onFailure(ctx::fail);
  }

  private Future<JsonObject> answer(String tenant, List<String> permissions, boolean expanded) {
    JsonObject json = new JsonObject().put("permissions", new JsonArray(permissions));
    if (!expanded) {
      return Future.succeededFuture(json);
    }
    return permissionSets
        .graph(tenant)
        .map(
            graph ->
                json.put(
                    "expandedPermissions",
                    new JsonArray(List.copyOf(new TreeSet<>(graph.expand(permissions))))));
  }

  private void put(RoutingContext ctx) {
    String tenant = OkapiHeaders.tenant(ctx.request().headers());
    String id = UsersHandler.checkId(ctx.pathParam("id"));
    Object body = JsonBody.parse(ctx.body().buffer());
    List<String> permissions = List.copyOf(new LinkedHashSet<>(names(body)));
    operators
        .of(tenant, ctx.request().headers())
        .compose(operator -> users.setPermissions(tenant, id, permissions, operator))
        .onSuccess(v -> ctx.response().setStatusCode(204).end())
        .onFailure(ctx::fail);
  }

  private static List<String> names(Object body) {
    if (body instanceof JsonArray array) {
      return JsonBody.names(array, "permissions");
    }
    if (body instanceof JsonObject object
        && object.getValue("permissions") instanceof JsonArray array) {
      return JsonBody.names(array, "permissions");
    }
    throw ApiException.unprocessable(
        "body must be a JSON array of permission names or {\"permissions\": [...]}");
  }
}
