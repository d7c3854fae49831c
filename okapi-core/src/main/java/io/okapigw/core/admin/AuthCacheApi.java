package io.okapigw.core.admin;

import static io.okapigw.core.admin.Replies.guarded;

import io.okapigw.cache.AuthCache;
import io.okapigw.cache.AuthCacheStats;
import io.okapigw.core.auth.Invalidation;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.function.Function;

/**
 * {@code /_/proxy/auth-cache}: the auth cache's counters, and invalidation (what the auth module
 * calls on logout, permission change, user deactivation and key rotation).
 */
final class AuthCacheApi {

  private final AuthCache cache;
  private final Function<Invalidation, Future<Long>> invalidator;

  /**
   * @param invalidator applies an invalidation (on every node of a cluster) and gives the count
   *     of entries removed locally
   */
  AuthCacheApi(AuthCache cache, Function<Invalidation, Future<Long>> invalidator) {
    this.cache = cache;
    this.invalidator = invalidator;
  }

  void mount(Router router) {
    router.get("/_/proxy/auth-cache").handler(ctx -> Replies.ok(ctx,
        Future.succeededFuture(statsJson(cache.stats()))));
    router.post("/_/proxy/auth-cache/invalidate").handler(guarded(this::invalidate));
  }

  private void invalidate(RoutingContext ctx) {
    Invalidation inv = Invalidation.fromJson(
        AdminBody.of(ctx).length() == 0 ? null : Replies.jsonObject(ctx));
    invalidator.apply(inv)
        .onSuccess(removed -> ctx.response().setStatusCode(204)
            .putHeader("X-Invalidated-Entries", Long.toString(removed)).end())
        .onFailure(ctx::fail);
  }

  private JsonObject statsJson(AuthCacheStats s) {
    return new JsonObject()
        .put("enabled", cache.options().isEnabled())
        .put("size", s.size())
        .put("hits", s.hits())
        .put("misses", s.misses())
        .put("hitRatio", s.hitRatio())
        .put("authCalls", s.loads())
        .put("authCallFailures", s.loadFailures())
        .put("evictions", s.evictions())
        .put("staleServed", s.staleServed());
  }
}
