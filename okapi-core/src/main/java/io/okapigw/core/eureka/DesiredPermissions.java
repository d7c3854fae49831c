package io.okapigw.core.eureka;

import io.okapigw.core.http.LogText;
import io.okapigw.core.http.OkapiHeaders;
import io.okapigw.core.routing.Pipeline;
import io.okapigw.core.routing.RoutingTables;
import io.okapigw.core.upstream.CallKind;
import io.okapigw.core.upstream.ModuleClient;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code X-Okapi-Permissions} for a handler with {@code permissionsDesired}, as the sidecar's
 * {@code DesiredPermissionsFilter} gets them: {@code GET
 * /users-keycloak/users/{userId}/permissions? desiredPermissions=...} of mod-users-keycloak, with
 * the tenant's service token as {@code X-Okapi-Token}, routed by the tenant's own table. As there,
 * a failure (no such module, an error) leaves the header out rather than failing the request.
 * Unlike there, the answer is cached with the decision.
 */
final class DesiredPermissions {

  private static final Logger log = LoggerFactory.getLogger(DesiredPermissions.class);

  private final RoutingTables tables;
  private final ModuleClient modules;
  private final ServiceTokens tokens;
  private final String okapiUrl;
  private final long timeoutMillis;

  DesiredPermissions(
      RoutingTables tables,
      ModuleClient modules,
      ServiceTokens tokens,
      String okapiUrl,
      EurekaOptions options) {
    this.tables = tables;
    this.modules = modules;
    this.tokens = tokens;
    this.okapiUrl = okapiUrl;
    this.timeoutMillis = options.callTimeout().toMillis();
  }

  /**
   * @return the user's permissions among {@code desired} as a JSON array, or null (none asked, none
   *     found, or not learned)
   */
  Future<String> of(String tenant, String userId, List<String> desired) {
    if (desired.isEmpty() || userId == null || !tokens.serviceAvailable(tenant)) {
      return Future.succeededFuture(null);
    }
    String path = "/users-keycloak/users/" + userId + "/permissions";
    Optional<Pipeline> route = tables.forTenant(tenant).flatMap(t -> t.match("GET", path, null));
    if (route.isEmpty()) {
      return Future.succeededFuture(null);
    }
    StringBuilder uri = new StringBuilder(path);
    for (int i = 0; i < desired.size(); i++) {
      uri.append(i == 0 ? '?' : '&').append("desiredPermissions=").append(desired.get(i));
    }
    return tokens
        .serviceToken(tenant)
        .compose(
            token ->
                modules
                    .open(
                        CallKind.KEYCLOAK,
                        route.get().handler().instances(),
                        HttpMethod.GET,
                        uri.toString(),
                        timeoutMillis)
                    .compose(
                        call -> {
                          call.headers()
                              .set(OkapiHeaders.TENANT, tenant)
                              .set(OkapiHeaders.TOKEN, token)
                              .set(OkapiHeaders.URL, okapiUrl);
                          return call.exchange(null, status -> 1024 * 1024);
                        }))
        .map(
            answer -> {
              if (answer.status() != 200) {
                throw new IllegalStateException("mod-users-keycloak answered " + answer.status());
              }
              JsonArray permissions = new JsonObject(answer.body()).getJsonArray("permissions");
              return permissions == null || permissions.isEmpty() ? null : permissions.encode();
            })
        .otherwise(
            e -> {
              log.warn("permissions of a user in {} not learned: {}", tenant, LogText.message(e));
              return null;
            });
  }
}
