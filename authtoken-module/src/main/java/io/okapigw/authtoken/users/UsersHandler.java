package io.okapigw.authtoken.users;

import io.okapigw.authtoken.http.ApiException;
import io.okapigw.authtoken.http.JsonBody;
import io.okapigw.authtoken.http.OkapiHeaders;
import io.okapigw.authtoken.password.PasswordHasher;
import io.okapigw.authtoken.perms.Operators;
import io.okapigw.authtoken.store.UserRecord;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * {@code POST /users} ({@code {"id","username","active","password","permissions"}}, id generated if
 * absent) and {@code PUT /users/{id}} (fields absent stay as they are). Passwords are never echoed.
 * A new user gets only permissions the caller may grant ({@link
 * io.okapigw.authtoken.perms.AssignRules}).
 */
public final class UsersHandler {
  /** User ids: 1-64 letters, digits, '-' or '_' (UUIDs fit). */
  public static final Pattern USER_ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");

  private static final int MAX_USERNAME_LENGTH = 256;

  private final UserService users;
  private final Operators operators;

  /**
   * @param users user logic @param operators who the caller is, from its token
   */
  public UsersHandler(UserService users, Operators operators) {
    this.users = users;
    this.operators = operators;
  }

  /**
   * @param router router to add the routes to @param body body handler with a size limit
   */
  public void mount(Router router, BodyHandler body) {
    router.post("/users").handler(body).handler(this::create);
    router.put("/users/:id").handler(body).handler(this::update);
  }

  /**
   * @param id a user id from a path or body
   * @return the id
   * @throws ApiException 422 if it is not 1-64 letters, digits, '-' or '_'
   */
  public static String checkId(String id) {
    if (id == null || !USER_ID.matcher(id).matches()) {
      throw ApiException.unprocessable("user id must be 1-64 letters, digits, '-' or '_'");
    }
    return id;
  }

  private void create(RoutingContext ctx) {
    String tenant = OkapiHeaders.tenant(ctx.request().headers());
    JsonBody body = JsonBody.of(ctx);
    String id = body.optionalString("id", 64);
    id = id == null ? UUID.randomUUID().toString() : checkId(id);
    String username = body.requiredString("username", MAX_USERNAME_LENGTH);
    Boolean active = body.optionalBoolean("active");
    List<String> permissions = body.optionalNames("permissions");
    String password = body.optionalString("password", PasswordHasher.MAX_PASSWORD_LENGTH);
    UserRecord user =
        new UserRecord(tenant, id, username, active == null || active, null, permissions);
    operators
        .of(tenant, ctx.request().headers())
        .compose(operator -> users.create(user, password, operator))
        .onSuccess(
            u ->
                ctx.response()
                    .setStatusCode(201)
                    .putHeader(HttpHeaders.LOCATION, "/users/" + u.id())
                    .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                    .end(toJson(u).encode()))
        .onFailure(ctx::fail);
  }

  private void update(RoutingContext ctx) {
    String tenant = OkapiHeaders.tenant(ctx.request().headers());
    String id = checkId(ctx.pathParam("id"));
    JsonBody body = JsonBody.of(ctx);
    String bodyId = body.optionalString("id", 64);
    if (bodyId != null && !bodyId.equals(id)) {
      throw ApiException.unprocessable("id in the body differs from the id in the path");
    }
    users
        .update(
            tenant,
            id,
            body.optionalString("username", MAX_USERNAME_LENGTH),
            body.optionalBoolean("active"),
            body.optionalString("password", PasswordHasher.MAX_PASSWORD_LENGTH))
        .onSuccess(u -> ctx.response().setStatusCode(204).end())
        .onFailure(ctx::fail);
  }

  /**
   * @param user a user @return its JSON (id, username, active), never the password hash
   */
  public static JsonObject toJson(UserRecord user) {
    return new JsonObject()
        .put("id", user.id())
        .put("username", user.username())
        .put("active", user.active());
  }
}
