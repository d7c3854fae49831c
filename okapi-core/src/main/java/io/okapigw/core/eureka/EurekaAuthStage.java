package io.okapigw.core.eureka;

import io.okapigw.cache.AuthCacheKey;
import io.okapigw.cache.AuthDecision;
import io.okapigw.core.auth.AuthRefusal;
import io.okapigw.core.auth.AuthRequest;
import io.okapigw.core.auth.AuthStage;
import io.okapigw.core.auth.CachingAuthStage;
import io.okapigw.core.http.HttpError;
import io.okapigw.core.http.OkapiHeaders;
import io.okapigw.core.registry.RoutingEntry;
import io.okapigw.core.routing.RoutingTables;
import io.okapigw.core.upstream.ModuleClient;
import io.vertx.core.Future;
import java.time.Clock;
import java.util.List;

/**
 * The auth stage of an Eureka tenant's requests, deciding as FOLIO's sidecar decides, through the
 * gateway's decision cache:
 *
 * <ol>
 *   <li>a handler without {@code permissionsRequired} needs no decision (the sidecar skips its
 *       tenant and authorization filters); a token it carries is still checked, and names the user;
 *   <li>otherwise the token is required and checked ({@link KeycloakTokens}: signature by a key of
 *       the tenant's realm, {@code exp}, {@code iss} naming the tenant), then Keycloak's UMA
 *       decision ({@link UmaDecisions}) on {@code {static path}#{METHOD}} is looked up in the cache
 *       under tenant, method, static path, the token's {@code user_id} and its session ({@code
 *       sid}) — not the token, so that a refreshed token of the session finds it (a token without a
 *       session, a client's, is its own key and lives no longer than its {@code exp}); misses on
 *       one key make one call; 401/403 are cached for the negative TTL;
 *   <li>a grant carries the token's {@code user_id} for {@code X-Okapi-User-Id} and, for a handler
 *       with {@code permissionsDesired}, the user's permissions from mod-users-keycloak ({@link
 *       DesiredPermissions}), cached with it.
 * </ol>
 *
 * <p>A failure is the sidecar's error body ({@link EurekaErrors}): 401 for a missing or refused
 * token, 403 for Keycloak's denial, Keycloak's status for its other 4xx (as the sidecar), 503 with
 * {@code Retry-After} when Keycloak cannot be reached or fails (the sidecar: 403).
 */
public final class EurekaAuthStage implements AuthStage {

  private final EurekaOptions options;
  private final CachingAuthStage cache;
  private final KeycloakTokens tokens;
  private final UmaDecisions decisions;
  private final DesiredPermissions desired;
  private final ServiceTokens serviceTokens;
  private final RoutingTables tables;

  /**
   * A module's call, granted.
   *
   * @param grant what the handler gets (the user of the module's token, if it has a valid one)
   * @param systemToken the tenant's service token, for {@code X-System-Token}; null if the gateway
   *     has none (no admin client secret, none in the secure store)
   */
  public record ModuleCallGrant(AuthDecision grant, String systemToken) {}

  private EurekaAuthStage(
      EurekaOptions options,
      CachingAuthStage cache,
      KeycloakTokens tokens,
      UmaDecisions decisions,
      DesiredPermissions desired,
      ServiceTokens serviceTokens,
      RoutingTables tables) {
    this.tables = tables;
    this.options = options;
    this.cache = cache;
    this.tokens = tokens;
    this.decisions = decisions;
    this.desired = desired;
    this.serviceTokens = serviceTokens;
  }

  /**
   * @param cache the node's decision cache, in front of whoever decides
   * @param keycloak the calls to Keycloak
   * @param serviceTokens the tenants' service tokens (to ask mod-users-keycloak)
   * @param tables routes mod-users-keycloak's permission lookups
   * @param modules calls mod-users-keycloak
   * @param okapiUrl the gateway's URL (X-Okapi-Url of those calls)
   * @param scheduler times the realms' key sets and schedules their fetches
   * @param clock the wall clock tokens' {@code exp} is compared with
   */
  public static EurekaAuthStage create(
      EurekaOptions options,
      CachingAuthStage cache,
      EurekaCalls keycloak,
      ServiceTokens serviceTokens,
      RoutingTables tables,
      ModuleClient modules,
      String okapiUrl,
      Timing scheduler,
      Clock clock) {
    return new EurekaAuthStage(
        options,
        cache,
        new KeycloakTokens(keycloak, options, scheduler, clock),
        new UmaDecisions(keycloak, options),
        new DesiredPermissions(tables, modules, serviceTokens, okapiUrl, options),
        serviceTokens,
        tables);
  }

  /**
   * @return a stage for a node without Keycloak: an Eureka tenant's request gets 503 naming the
   *     missing setting
   */
  public static EurekaAuthStage off(EurekaOptions options) {
    return new EurekaAuthStage(options, null, null, null, null, null, null);
  }

  @Override
  public Future<AuthDecision> authorize(AuthRequest request) {
    return decide(request).recover(EurekaErrors::sidecarShaped);
  }

  private Future<AuthDecision> decide(AuthRequest request) {
    if (tokens == null) {
      return Future.failedFuture(off(request));
    }
    RoutingEntry handler = request.pipeline().handler().entry();
    boolean decided = !handler.permissionsRequired().isEmpty();
    if (request.token() == null) {
      return decided
          ? Future.failedFuture(
              EurekaErrors.unauthorized(
                  "a token is needed: " + handler.staticPath() + " requires permissions"))
          : Future.succeededFuture(AuthDecision.grant(200, null, null, null, null));
    }
    return tokens
        .verify(request.tenant(), request.token())
        .compose(token -> decided ? decision(request, handler, token) : userOnly(request, token));
  }

  /**
   * A module's call back (the gateway sent it a call of the tenant whose key the request carries),
   * decided as the sidecar decides a call its egress marked: its egress adds {@code
   * X-System-Token}, the tenant's service token (a client-credentials token of {@code
   * sidecar-module-access-client}, whose service account has the {@code System} role), and, when
   * the call carries no {@code X-Okapi-Token}, the calling module's system user's token as {@code
   * X-Okapi-Token} (a module whose descriptor asks for no system user is refused 400 then, as
   * there). Keycloak is asked about the service token (cached by that token until its {@code exp},
   * as the sidecar keys it); the user's token, if valid, names the user ({@code X-Okapi-User-Id}),
   * a bad one is ignored, as there. Without the tenant's service token (no admin client, no secret
   * in the store) the call is decided as a client's, for its token or the system user's, and
   * carries no {@code X-System-Token}.
   *
   * @param callingModule the module that calls back ({@link io.okapigw.core.callback.Call#module}),
   *     or null if that cannot be told (then no system user's token is added)
   * @return the grant; failed with a refusal, 400 if the call has no user's token and its module no
   *     system user, or 503 if a system user's token the module needs cannot be had (as the sidecar
   *     fails such a call)
   */
  public Future<ModuleCallGrant> authorizeModuleCall(AuthRequest request, String callingModule) {
    return decideModuleCall(request, callingModule).recover(EurekaErrors::sidecarShaped);
  }

  private Future<ModuleCallGrant> decideModuleCall(AuthRequest request, String callingModule) {
    if (tokens == null) {
      return Future.failedFuture(off(request));
    }
    String tenant = request.tenant();
    Future<String> userToken =
        request.token() != null
            ? Future.succeededFuture(request.token())
            : systemUserToken(tenant, callingModule);
    if (!serviceTokens.serviceAvailable(tenant)) {
      return userToken.compose(
          token ->
              decide(withToken(request, token))
                  .map(grant -> new ModuleCallGrant(asSystemUser(grant, request, token), null)));
    }
    RoutingEntry handler = request.pipeline().handler().entry();
    return userToken.compose(
        token -> {
          Future<KeycloakToken> user =
              token == null
                  ? Future.succeededFuture()
                  : tokens.verify(tenant, token).otherwise(e -> null);
          return serviceTokens
              .serviceToken(tenant)
              .compose(system -> tokens.verify(tenant, system))
              .compose(
                  system -> {
                    Future<AuthDecision> decided =
                        handler.permissionsRequired().isEmpty()
                            ? Future.succeededFuture(
                                AuthDecision.grant(200, null, null, null, null))
                            : decision(request, handler, system);
                    return decided.compose(
                        grant ->
                            user.map(
                                u ->
                                    new ModuleCallGrant(
                                        asSystemUser(
                                            AuthDecision.grant(
                                                200,
                                                null,
                                                u == null ? null : u.userId(),
                                                grant.permissions(),
                                                null),
                                            request,
                                            token),
                                        system.raw())));
                  });
        });
  }

  /**
   * @return the system user's token of the module that calls back; null if the module cannot be
   *     told; failed 400 if its descriptor asks for no system user, as the sidecar's egress refuses
   *     a call without {@code X-Okapi-Token} of such a module
   */
  private Future<String> systemUserToken(String tenant, String callingModule) {
    if (callingModule == null) {
      return Future.succeededFuture(null);
    }
    return tables
        .forTenant(tenant)
        .flatMap(t -> t.systemUser(callingModule))
        .map(user -> serviceTokens.systemUserToken(tenant, user))
        .orElseGet(
            () ->
                Future.failedFuture(
                    HttpError.badRequest(
                        "System user token is required if the request doesn't contain "
                            + OkapiHeaders.TOKEN
                            + ". Check that system user is configured for the module: "
                            + callingModule)));
  }

  private static AuthRequest withToken(AuthRequest request, String token) {
    return token == null || token.equals(request.token())
        ? request
        : new AuthRequest(
            request.tenant(),
            request.method(),
            request.uri(),
            token,
            request.userId(),
            request.pipeline(),
            request.headers());
  }

  /**
   * @return the grant, with the system user's token for every module ({@code X-Okapi-Token}) if the
   *     call carried none of its own
   */
  private static AuthDecision asSystemUser(AuthDecision grant, AuthRequest request, String token) {
    if (token == null || token.equals(request.token())) {
      return grant;
    }
    return AuthDecision.grant(
        grant.status(),
        grant.moduleToken(),
        grant.userId(),
        grant.permissions(),
        java.util.Map.of("_", token));
  }

  private static HttpError off(AuthRequest request) {
    return HttpError.unavailable(
        "tenant "
            + request.tenant()
            + " is an Eureka tenant, but this node has no "
            + EurekaOptions.KEYCLOAK_URL.key());
  }

  /**
   * A Keycloak token sent to an Okapi tenant is refused: its auth filter knows nothing of Keycloak,
   * and a handler without an auth filter must not take it as anyone's.
   *
   * @return a 401 refusal if {@code token} names the configured Keycloak, else null
   */
  public AuthRefusal refusalOnOkapiTenant(String tenant, String token) {
    if (KeycloakTokens.fromKeycloak(token, options)) {
      return EurekaErrors.unauthorized(
          "a Keycloak token is not taken by tenant " + tenant + ", whose auth is Okapi's");
    }
    return null;
  }

  private Future<AuthDecision> decision(
      AuthRequest request, RoutingEntry handler, KeycloakToken token) {
    String permission = handler.staticPath() + "#" + request.method().name();
    AuthCacheKey key =
        new AuthCacheKey(
            request.tenant(),
            request.method().name(),
            handler.staticPath(),
            token.userId(),
            token.session() == null ? token.raw() : null,
            token.session());
    List<String> wanted = handler.permissionsDesired();
    return cache.decide(
        key,
        () ->
            decisions
                .decide(request.tenant(), permission, token)
                .compose(
                    d ->
                        d.isGrant()
                            ? withPermissions(request, token, wanted)
                            : Future.succeededFuture(d)));
  }

  /** No decision needed: the token's user, and the desired permissions if any (cached). */
  private Future<AuthDecision> userOnly(AuthRequest request, KeycloakToken token) {
    RoutingEntry handler = request.pipeline().handler().entry();
    List<String> wanted = handler.permissionsDesired();
    if (wanted.isEmpty() || token.userId() == null) {
      return Future.succeededFuture(AuthDecision.grant(200, null, token.userId(), null, null));
    }
    AuthCacheKey key =
        new AuthCacheKey(
            request.tenant(),
            request.method().name(),
            handler.staticPath() + " (no decision)",
            token.userId(),
            token.session() == null ? token.raw() : null,
            token.session());
    return cache.decide(key, () -> withPermissions(request, token, wanted));
  }

  private Future<AuthDecision> withPermissions(
      AuthRequest request, KeycloakToken token, List<String> wanted) {
    return desired
        .of(request.tenant(), token.userId(), wanted)
        .map(permissions -> AuthDecision.grant(200, null, token.userId(), permissions, null));
  }
}
