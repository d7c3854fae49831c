package io.okapigw.core.auth;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import io.okapigw.cache.AuthCache;
import io.okapigw.cache.AuthCacheKey;
import io.okapigw.cache.AuthDecision;
import java.util.Optional;

/**
 * Tokens the auth module has accepted, with the user it named: all that {@code auth.parallel=safe}
 * may hand a handler before the auth module has decided on the handler's own request. A token is
 * confirmed for a tenant (and the {@code X-Okapi-User-Id} a client sent with it) while a grant the
 * auth module gave it, on any route, is in the auth cache, fresh: exactly as long as the cache
 * would serve that grant (its TTL, the token's {@code exp}, never past an invalidation of the
 * token, its user or its tenant, nor a load in flight during one; {@link AuthCache#peek}), so never
 * with the cache off. A request without a token, with a forged one, or with one never accepted has
 * no confirmed identity. Kept here: which cache key holds the last grant loaded for each (tenant,
 * token, user id sent), bounded to a quarter of {@code auth.cache.max-bytes}. Thread-safe.
 */
public final class ConfirmedTokens {

  /**
   * What the auth module said about a token.
   *
   * @param userId the user it named ({@code X-Okapi-User-Id}); empty for none
   * @param token the token it hands modules for it (its {@code _} module token, else the token)
   */
  public record Identity(String userId, String token) {}

  private record Key(String tenant, String token, String userId) {}

  private final AuthCache cache;
  private final Cache<Key, AuthCacheKey> grants;

  /**
   * @param cache the auth cache, whose grants confirm tokens
   * @param ticker the node's clock, the cache's
   */
  public ConfirmedTokens(AuthCache cache, Ticker ticker) {
    this.cache = cache;
    this.grants =
        Caffeine.newBuilder()
            .maximumWeight(Math.max(1, cache.options().maxBytes() / 4))
            .weigher(
                (Key k, AuthCacheKey v) ->
                    64 + 2 * (k.token().length() + v.pathPattern().length() + v.tenant().length()))
            .expireAfterWrite(cache.options().ttl())
            .ticker(ticker)
            .build();
  }

  /** The auth module granted the request {@code key} of {@code request} is cached under. */
  void granted(AuthRequest request, AuthCacheKey key, AuthDecision decision) {
    if (request.token() != null && decision.isGrant()) {
      grants.put(new Key(request.tenant(), request.token(), request.userId()), key);
    }
  }

  /**
   * @param tenant the request's tenant
   * @param token the client's token, or null
   * @param userId the {@code X-Okapi-User-Id} the client sent with it, or null
   * @return what the auth module said of the token, if it is confirmed for the tenant
   */
  public Optional<Identity> of(String tenant, String token, String userId) {
    if (token == null) {
      return Optional.empty();
    }
    AuthCacheKey key = grants.getIfPresent(new Key(tenant, token, userId));
    return Optional.ofNullable(key)
        .flatMap(cache::peek)
        .filter(AuthDecision::isGrant)
        .map(grant -> new Identity(grant.userId(), Grants.tokenFor(grant, "_", token)));
  }
}
