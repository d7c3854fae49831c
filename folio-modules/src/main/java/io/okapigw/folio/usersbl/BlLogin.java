package io.okapigw.folio.usersbl;

import io.okapigw.folio.module.Answer;
import io.okapigw.folio.module.ModuleError;
import io.okapigw.folio.module.ModuleRequest;
import io.okapigw.folio.module.OkapiClient;
import io.okapigw.folio.module.Reply;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * One login through mod-users-bl, as its {@code BLUsersAPI.doPostBlUsersLogin} does it: the
 * credentials to the auth module; if it refuses, its answer (422 with its errors, 400 and 403 as
 * text, anything else 500); else the user by username, its permission user, its permissions
 * (expanded with {@code expandPermissions=true}) and its service points, answered 201 as FOLIO's
 * {@code compositeUser} with the auth module's {@code Set-Cookie} headers (login with expiry) or
 * its {@code X-Okapi-Token} (the older login). Every lookup carries this module's token, as in
 * FOLIO.
 */
final class BlLogin {

  private static final String TOKEN = "X-Okapi-Token";

  private final ModuleRequest request;
  private final boolean withExpiry;
  private final OkapiClient okapi;

  BlLogin(ModuleRequest request, boolean withExpiry) {
    this.request = request;
    this.withExpiry = withExpiry;
    this.okapi = request.okapi();
  }

  Future<Reply> run() {
    JsonObject credentials = credentials();
    String username = credentials.getString("username");
    var call = withExpiry ? UsersBlModule.LOGIN_WITH_EXPIRY : UsersBlModule.LOGIN;
    return okapi
        .exchange(call, call.path(), credentials)
        .compose(login -> login.ok() ? compositeUser(username, login) : refused(login));
  }

  private JsonObject credentials() {
    JsonObject body = request.json();
    if (!(body.getValue("username") instanceof String username)
        || !(body.getValue("password") instanceof String password)) {
      throw ModuleError.badRequest("Improperly formatted request");
    }
    return new JsonObject().put("username", username).put("password", password);
  }

  private Future<Reply> compositeUser(String username, Answer login) {
    JsonObject composite = new JsonObject();
    return okapi
        .json(UsersBlModule.USERS, UsersBlModule.USERS.query("username==\"" + username + "\"", 2))
        .map(users -> one(users, "users", "username==" + username))
        .compose(
            user -> {
              composite.put("user", user);
              String userId = user.getString("id");
              return Future.all(permissions(userId), servicePoints(userId))
                  .map(
                      all -> {
                        composite.put("permissions", all.resultAt(0));
                        if (all.resultAt(1) != null) {
                          composite.put("servicePointsUser", all.resultAt(1));
                        }
                        return reply(composite, login);
                      });
            });
  }

  private Future<JsonObject> permissions(String userId) {
    return okapi
        .json(
            UsersBlModule.PERMISSION_USERS,
            UsersBlModule.PERMISSION_USERS.query("userId==\"" + userId + "\"", 1))
        .map(found -> one(found, "permissionUsers", "userId==" + userId))
        .compose(
            permissionUser -> {
              if (!"true".equals(request.query("expandPermissions"))) {
                return Future.succeededFuture(permissionUser);
              }
              String path =
                  UsersBlModule.PERMISSIONS.path(permissionUser.getString("id"))
                      + "?expanded=true&full=true";
              return okapi
                  .json(UsersBlModule.PERMISSIONS, path)
                  .map(
                      names ->
                          new JsonObject()
                              .put("userId", permissionUser.getString("id"))
                              .put("permissions", names.getJsonArray("permissionNames")));
            });
  }

  /** The user's service points, each expanded; null when the user has none. */
  private Future<JsonObject> servicePoints(String userId) {
    return okapi
        .json(
            UsersBlModule.SERVICE_POINTS_USERS,
            UsersBlModule.SERVICE_POINTS_USERS.query("userId==\"" + userId + "\"", 1))
        .compose(
            found -> {
              JsonArray records = found.getJsonArray("servicePointsUsers", new JsonArray());
              if (records.isEmpty()) {
                return Future.succeededFuture(null);
              }
              JsonObject spu = records.getJsonObject(0).copy();
              List<Future<JsonObject>> points = new ArrayList<>();
              spu.getJsonArray("servicePointsIds", new JsonArray())
                  .forEach(
                      id ->
                          points.add(
                              okapi.json(
                                  UsersBlModule.SERVICE_POINT,
                                  UsersBlModule.SERVICE_POINT.path((String) id))));
              return Future.all(points)
                  .map(all -> spu.put("servicePoints", new JsonArray(all.list())));
            });
  }

  private Reply reply(JsonObject composite, Answer login) {
    composite.put("tenant", request.header("X-Okapi-Tenant"));
    Reply reply;
    if (withExpiry) {
      JsonObject expiry = login.json();
      composite.put(
          "tokenExpiration",
          new JsonObject()
              .put("accessTokenExpiration", expiry.getString("accessTokenExpiration"))
              .put("refreshTokenExpiration", expiry.getString("refreshTokenExpiration")));
      reply = Reply.created(composite);
      for (String cookie : login.headers().getAll("Set-Cookie")) {
        reply = reply.withHeader("Set-Cookie", cookie);
      }
    } else {
      reply = Reply.created(composite);
      String token = login.headers().get(TOKEN);
      if (token != null) {
        reply = reply.withHeader(TOKEN, token);
      }
    }
    return reply;
  }

  private static JsonObject one(JsonObject collection, String name, String query) {
    JsonArray records = collection.getJsonArray(name, new JsonArray());
    if (records.isEmpty()) {
      throw ModuleError.notFound("No record found for query '" + query + "'");
    }
    return records.getJsonObject(0);
  }

  /** The auth module's refusal, passed on as mod-users-bl's {@code handleResponse} does. */
  private static Future<Reply> refused(Answer login) {
    int status = login.status();
    if (status == 422) {
      return Future.succeededFuture(new Reply(422, login.json()));
    }
    int passed = status == 400 || status == 403 || status == 404 ? status : 500;
    return Future.failedFuture(ModuleError.of(passed, login.message()));
  }
}
