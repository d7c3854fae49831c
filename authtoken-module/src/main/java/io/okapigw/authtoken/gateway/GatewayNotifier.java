package io.okapigw.authtoken.gateway;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;

/**
 * Tells the gateway to drop cached auth decisions: {@code POST
 * {gateway}/_/proxy/auth-cache/invalidate} with {@code {"tenant","userId"}}, {@code
 * {"tenant","token"}}, {@code {"tenant"}} or {@code {}} (everything). With several gateway URLs
 * (the nodes of a cluster), one that fails or stays silent is followed by the next, so that the
 * invalidation reaches the cluster whichever node is down. Each call waits for an answer at most
 * the configured timeout per URL and never fails: if no URL answers, the call succeeds, a warning
 * is logged and the invalidation is retried in the background.
 *
 * <p>The call is an admin call of the gateway, routed for the {@value #SUPERTENANT} tenant and
 * checked by the auth filter enabled there (this module): it carries {@code X-Okapi-Tenant:
 * supertenant} and an {@code X-Okapi-Token} the module signs itself, without user, valid {@link
 * #TOKEN_LIFETIME} (at most the token TTL), whose {@code extra_permissions} is {@code [}{@value
 * #INVALIDATE_PERMISSION}{@code ]}. Every attempt, retries included, gets a fresh token.
 */
public interface GatewayNotifier {
  /** The gateway's built-in tenant its admin API is routed for. */
  String SUPERTENANT = "supertenant";

  /** The permission the gateway requires for {@code POST /_/proxy/auth-cache/invalidate}. */
  String INVALIDATE_PERMISSION = "okapi.proxy.auth-cache.invalidate";

  /** The gateway's answer header: on how many of its nodes the invalidation was applied. */
  String INVALIDATED_NODES = "X-Invalidated-Nodes";

  /** Lifetime of the token sent with an invalidation (capped at the token TTL). */
  Duration TOKEN_LIFETIME = Duration.ofSeconds(60);

  /**
   * @param vertx Vert.x
   * @param options where and how (no gateway URL: a notifier that does nothing)
   * @param signer signs the token each invalidation carries
   * @return the notifier
   */
  static GatewayNotifier create(Vertx vertx, InvalidationOptions options, Signer signer) {
    if (options.gateways().isEmpty()) {
      return new DisabledGatewayNotifier();
    }
    return new HttpGatewayNotifier(vertx, options, signer);
  }

  /**
   * @param tenant tenant id @param userId user id @return done (never fails)
   */
  default Future<Void> invalidateUser(String tenant, String userId) {
    return invalidate(new JsonObject().put("tenant", tenant).put("userId", userId));
  }

  /**
   * @param tenant tenant id @param token the token @return done (never fails)
   */
  default Future<Void> invalidateToken(String tenant, String token) {
    return invalidate(new JsonObject().put("tenant", tenant).put("token", token));
  }

  /**
   * @param tenant tenant id @return done (never fails)
   */
  default Future<Void> invalidateTenant(String tenant) {
    return invalidate(new JsonObject().put("tenant", tenant));
  }

  /**
   * @return done (never fails): everything invalidated, e.g. after key rotation
   */
  default Future<Void> invalidateAll() {
    return invalidate(new JsonObject());
  }

  /**
   * @param body the invalidation request body @return done (never fails)
   */
  Future<Void> invalidate(JsonObject body);

  /**
   * @return done: pending retries are dropped, the HTTP client closed
   */
  Future<Void> close();

  /**
   * Signs the token an invalidation carries: no user, {@code extraPermissions} only, valid for
   * {@code lifetime} at most (the module's token service, capping it at the token TTL).
   */
  @FunctionalInterface
  interface Signer {
    /**
     * @param tenant the token's tenant ({@value #SUPERTENANT})
     * @param extraPermissions what the token grants
     * @param lifetime how long it is valid, at most
     * @return the signed token
     */
    String sign(String tenant, List<String> extraPermissions, Duration lifetime);
  }
}
