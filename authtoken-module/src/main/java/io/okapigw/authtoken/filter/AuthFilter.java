package io.okapigw.authtoken.filter;

import io.okapigw.authtoken.http.ApiException;
import io.okapigw.authtoken.perms.PermissionGraph;
import io.okapigw.authtoken.perms.PermissionSets;
import io.okapigw.authtoken.token.RevokedSessions;
import io.okapigw.authtoken.token.TokenClaims;
import io.okapigw.authtoken.token.TokenService;
import io.okapigw.authtoken.users.UserSource;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The auth decision. With a token: valid HS256 signature, not expired, {@code tenant} equal to
 * {@code X-Okapi-Tenant} (else 403), {@code X-Okapi-User-Id} if sent equal to the token's user
 * (else 403), session not logged out and user active (else 401); then every required permission
 * must be among the user's permissions and the token's {@code extra_permissions}, both expanded
 * through the tenant's permission sets (else 403 naming the missing ones). Without a token only
 * requests requiring no permission pass, as the anonymous user. The user comes from a {@link
 * UserSource}: by default this module's store, so decisions come from memory (users, sets and
 * revocations are cached) except on a cache miss; with {@code --user-lookup gateway}, from
 * mod-users and mod-permissions through the gateway on every decision with a user, as FOLIO's
 * mod-authtoken.
 */
public final class AuthFilter {
  private final TokenService tokens;
  private final UserSource users;
  private final PermissionSets permissionSets;
  private final RevokedSessions revoked;

  /**
   * @param tokens token verification and module tokens
   * @param users where active users and their expanded permissions come from
   * @param permissionSets the tenants' permission sets
   * @param revoked logged-out sessions
   */
  public AuthFilter(
      TokenService tokens,
      UserSource users,
      PermissionSets permissionSets,
      RevokedSessions revoked) {
    this.tokens = tokens;
    this.users = users;
    this.permissionSets = permissionSets;
    this.revoked = revoked;
  }

  /**
   * @param request the filter request
   * @return the decision; fails with 401 or 403 and a message naming the problem
   */
  public Future<FilterDecision> decide(FilterRequest request) {
    if (request.token() == null) {
      return Future.succeededFuture(anonymous(request));
    }
    TokenClaims claims = tokens.verify(request.token());
    check(request, claims);
    if (claims.userId() == null) {
      return permissionSets
          .graph(request.tenant())
          .map(graph -> decide(request, claims, Set.of(), graph));
    }
    return users
        .activeUser(request.tenant(), claims.userId(), request.okapiUrl(), request.requestId())
        .map(user -> decide(request, claims, user.permissions(), user.graph()));
  }

  private void check(FilterRequest request, TokenClaims claims) {
    if (!claims.tenant().equals(request.tenant())) {
      throw ApiException.forbidden("token is for another tenant than " + request.tenant());
    }
    if (request.userId() != null && !request.userId().equals(claims.userId())) {
      throw ApiException.forbidden("X-Okapi-User-Id does not match the token's user");
    }
    if (revoked.isRevoked(claims.tenant(), claims.sessionId())) {
      throw ApiException.unauthorized("token's session was logged out");
    }
  }

  private FilterDecision decide(
      FilterRequest request,
      TokenClaims claims,
      Set<String> userPermissions,
      PermissionGraph graph) {
    Set<String> extra =
        claims.extraPermissions().isEmpty() ? Set.of() : graph.expand(claims.extraPermissions());
    List<String> missing = new ArrayList<>();
    for (String p : request.required()) {
      if (!userPermissions.contains(p) && !extra.contains(p)) {
        missing.add(p);
      }
    }
    if (!missing.isEmpty()) {
      throw ApiException.forbidden("Access requires permission: " + String.join(", ", missing));
    }
    List<String> held = new ArrayList<>(request.required());
    for (String p : new LinkedHashSet<>(request.desired())) {
      if (!held.contains(p) && (userPermissions.contains(p) || extra.contains(p))) {
        held.add(p);
      }
    }
    Map<String, String> moduleTokens =
        moduleTokens(request, perms -> tokens.moduleToken(claims, perms));
    moduleTokens.put("_", request.token());
    return new FilterDecision(request.token(), claims.userId(), held, moduleTokens);
  }

  private FilterDecision anonymous(FilterRequest request) {
    if (!request.required().isEmpty()) {
      throw ApiException.unauthorized(
          "missing token; the request requires permission: "
              + String.join(", ", request.required()));
    }
    // no user id counts without a token (Credentials): the caller is anonymous (Okapi 6.1.5 sends
    // the admin caller's X-Okapi-User-Id, without a token, on the auth call of a system call)
    String token = tokens.anonymousToken(request.tenant(), List.of());
    Map<String, String> moduleTokens =
        moduleTokens(request, perms -> tokens.anonymousToken(request.tenant(), perms));
    moduleTokens.put("_", token);
    return new FilterDecision(token, null, List.of(), moduleTokens);
  }

  private static Map<String, String> moduleTokens(
      FilterRequest request, Function<List<String>, String> issue) {
    Map<String, String> moduleTokens = new LinkedHashMap<>();
    request
        .modulePermissions()
        .forEach(
            (module, perms) -> {
              if (!perms.isEmpty()) {
                moduleTokens.put(module, issue.apply(perms));
              }
            });
    return moduleTokens;
  }
}
