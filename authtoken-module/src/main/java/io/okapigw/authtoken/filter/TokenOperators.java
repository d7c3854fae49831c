package io.okapigw.authtoken.filter;

import io.okapigw.authtoken.http.ApiException;
import io.okapigw.authtoken.http.OkapiHeaders;
import io.okapigw.authtoken.perms.Operator;
import io.okapigw.authtoken.perms.Operators;
import io.okapigw.authtoken.perms.PermissionGraph;
import io.okapigw.authtoken.perms.PermissionSets;
import io.okapigw.authtoken.token.RevokedSessions;
import io.okapigw.authtoken.token.TokenClaims;
import io.okapigw.authtoken.token.TokenService;
import io.okapigw.authtoken.users.UserDirectory.ActiveUser;
import io.okapigw.authtoken.users.UserSource;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The caller of a request that grants permissions, from its token, checked as the filter checks it
 * (signature, expiry, tenant, session) and holding what the filter would grant it: its user's
 * permissions and the token's {@code extra_permissions}, expanded. Behind the gateway the token is
 * the one the filter answered for this module; the user id is the token's, never a header's.
 */
public final class TokenOperators implements Operators {
  private final TokenService tokens;
  private final UserSource users;
  private final PermissionSets permissionSets;
  private final RevokedSessions revoked;

  /**
   * @param tokens token verification
   * @param users where active users and their expanded permissions come from (the filter's)
   * @param permissionSets the tenants' permission sets
   * @param revoked logged-out sessions
   */
  public TokenOperators(
      TokenService tokens,
      UserSource users,
      PermissionSets permissionSets,
      RevokedSessions revoked) {
    this.tokens = tokens;
    this.users = users;
    this.permissionSets = permissionSets;
    this.revoked = revoked;
  }

  @Override
  public Future<Optional<Operator>> of(String tenant, MultiMap headers) {
    String token = OkapiHeaders.token(headers);
    if (token == null) {
      return Future.succeededFuture(Optional.empty());
    }
    TokenClaims claims = tokens.verify(token);
    if (!claims.tenant().equals(tenant)) {
      throw ApiException.forbidden("token is for another tenant than " + tenant);
    }
    if (revoked.isRevoked(claims.tenant(), claims.sessionId())) {
      throw ApiException.unauthorized("token's session was logged out");
    }
    Future<Set<String>> held =
        claims.userId() == null
            ? Future.succeededFuture(Set.of())
            : users
                .activeUser(
                    tenant,
                    claims.userId(),
                    headers.get(OkapiHeaders.URL),
                    headers.get(OkapiHeaders.REQUEST_ID))
                .map(ActiveUser::permissions);
    return held.compose(
        permissions ->
            permissionSets.graph(tenant).map(graph -> operator(claims, permissions, graph)));
  }

  private static Optional<Operator> operator(
      TokenClaims claims, Set<String> userPermissions, PermissionGraph graph) {
    Set<String> module =
        claims.extraPermissions().isEmpty() ? Set.of() : graph.expand(claims.extraPermissions());
    Set<String> holds = new HashSet<>(userPermissions);
    holds.addAll(module);
    return Optional.of(
        new Operator(
            claims.userId() == null ? "null" : claims.userId(),
            holds,
            List.copyOf(new TreeSet<>(module))));
  }
}
