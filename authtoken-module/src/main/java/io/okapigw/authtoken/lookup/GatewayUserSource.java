package io.okapigw.authtoken.lookup;

import io.okapigw.authtoken.gateway.GatewayNotifier;
import io.okapigw.authtoken.http.ApiException;
import io.okapigw.authtoken.http.OkapiHeaders;
import io.okapigw.authtoken.lookup.LookupClient.Answer;
import io.okapigw.authtoken.perms.PermissionSets;
import io.okapigw.authtoken.store.UserRecord;
import io.okapigw.authtoken.token.TokenService;
import io.okapigw.authtoken.users.UserDirectory.ActiveUser;
import io.okapigw.authtoken.users.UserSource;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code --user-lookup gateway}: decides as FOLIO's mod-authtoken does, every filter call with a
 * user looking the user up in mod-users and its permissions in mod-permissions, through the
 * gateway, one call after the other and uncached:
 *
 * <ol>
 *   <li>{@code GET /users/{id}}: 404 is a 401 (no such user), {@code "active": false} a 401;
 *   <li>{@code GET /perms/users?query=userId==ID}: the user's permission record (none: the user
 *       holds no permission);
 *   <li>{@code GET /perms/users/{permUserId}/permissions?expanded=true}: its {@code
 *       permissionNames}, permission sets expanded by mod-permissions (and expanded again through
 *       this module's sets).
 * </ol>
 *
 * The calls carry a token of no user whose extra permissions are {@link #LOOKUP_PERMISSIONS} (as
 * mod-authtoken's request tokens), so the gateway's auth call for each of them is decided from the
 * token alone and never looks anything up. Any other answer, or no answer, fails the decision with
 * 502 naming the call. Users of the gateway's own tenant ({@value #SUPERTENANT}) come from this
 * module's store all the same: it holds the super admin whose token opens the admin API, and that
 * tenant has no mod-users.
 */
public final class GatewayUserSource implements UserSource {
  /** What the lookups need: mod-users' and mod-permissions' read permissions. */
  public static final List<String> LOOKUP_PERMISSIONS =
      List.of("users.item.get", "perms.users.get");

  /** The gateway's own tenant, whose users are never looked up through it. */
  public static final String SUPERTENANT = GatewayNotifier.SUPERTENANT;

  private final LookupClient client;
  private final TokenService tokens;
  private final PermissionSets permissionSets;
  private final UserSource local;

  /**
   * @param client HTTP to the gateway
   * @param tokens issues the lookup token
   * @param permissionSets the tenants' permission sets, to expand the names found
   * @param local this module's users, for {@value #SUPERTENANT}
   */
  public GatewayUserSource(
      LookupClient client, TokenService tokens, PermissionSets permissionSets, UserSource local) {
    this.client = client;
    this.tokens = tokens;
    this.permissionSets = permissionSets;
    this.local = local;
  }

  @Override
  public Future<ActiveUser> activeUser(
      String tenant, String userId, String okapiUrl, String requestId) {
    if (SUPERTENANT.equals(tenant)) {
      return local.activeUser(tenant, userId, okapiUrl, requestId);
    }
    if (okapiUrl == null || okapiUrl.isBlank()) {
      return Future.failedFuture(
          ApiException.badRequest(
              "missing header "
                  + OkapiHeaders.URL
                  + ": the user is looked up through the gateway (--user-lookup gateway)"));
    }
    Lookups lookups = new Lookups(okapiUrl, tenant, requestId);
    return lookups
        .get("/users/" + encode(userId))
        .map(answer -> activeUser(answer, userId))
        .compose(
            user ->
                lookups
                    .get("/perms/users?query=" + encode("userId==" + userId))
                    .compose(answer -> permissionNames(lookups, answer))
                    .compose(
                        names ->
                            permissionSets
                                .graph(tenant)
                                .map(
                                    graph ->
                                        new ActiveUser(
                                            new UserRecord(
                                                tenant,
                                                userId,
                                                user.getString("username", userId),
                                                true,
                                                null,
                                                names),
                                            graph,
                                            graph.expand(names)))));
  }

  private static JsonObject activeUser(Answer answer, String userId) {
    if (answer.status() == 404) {
      throw ApiException.unauthorized("user of the token does not exist: " + userId);
    }
    JsonObject user = expect(answer, "GET /users/{id}");
    if (!Boolean.TRUE.equals(user.getValue("active"))) {
      throw ApiException.unauthorized("user is not active: " + userId);
    }
    return user;
  }

  private Future<List<String>> permissionNames(Lookups lookups, Answer permissionUsers) {
    JsonArray found =
        expect(permissionUsers, "GET /perms/users")
            .getJsonArray("permissionUsers", new JsonArray());
    if (found.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    String permUserId = found.getJsonObject(0).getString("id");
    return lookups
        .get("/perms/users/" + encode(permUserId) + "/permissions?expanded=true")
        .map(answer -> names(expect(answer, "GET /perms/users/{id}/permissions")));
  }

  private static List<String> names(JsonObject permissions) {
    JsonArray names = permissions.getJsonArray("permissionNames");
    if (names == null) {
      throw new ApiException(
          502, "GET /perms/users/{id}/permissions answered without" + " permissionNames");
    }
    List<String> list = new ArrayList<>();
    for (Object name : names) {
      if (name instanceof String s) {
        list.add(s);
      }
    }
    return list;
  }

  private static JsonObject expect(Answer answer, String call) {
    if (answer.status() != 200) {
      String text = answer.text();
      throw new ApiException(
          502,
          call
              + " through the gateway answered "
              + answer.status()
              + ": "
              + (text.length() > 200 ? text.substring(0, 200) + "..." : text));
    }
    return answer.json();
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  /** The lookups of one decision: one gateway, tenant, token and request id. */
  private final class Lookups {
    private final String okapiUrl;
    private final String tenant;
    private final String token;
    private final String requestId;

    Lookups(String okapiUrl, String tenant, String requestId) {
      this.okapiUrl = okapiUrl;
      this.tenant = tenant;
      this.requestId = requestId;
      this.token = tokens.anonymousToken(tenant, LOOKUP_PERMISSIONS);
    }

    Future<Answer> get(String pathAndQuery) {
      return client.get(okapiUrl, pathAndQuery, tenant, token, requestId);
    }
  }
}
