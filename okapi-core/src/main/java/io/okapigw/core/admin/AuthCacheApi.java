package io.okapigw.core.admin;

import static io.okapigw.core.admin.Replies.guarded;

import io.okapigw.cache.AuthCache;
import io.okapigw.cache.AuthCacheStats;
import io.okapigw.core.auth.Invalidation;
import io.okapigw.core.cluster.ClusterInvalidator;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code /_/proxy/auth-cache}: the auth cache's counters, and invalidation (what the auth module
 * calls on logout, permission change, user deactivation and key rotation).
 */
final class AuthCacheApi implements AdminRoutes {

  /** The answer's count of the nodes that applied an invalidation. */
  static final String INVALIDATED_NODES = "X-Invalidated-Nodes";

  private final AuthCache cache;
  private final ClusterInvalidator invalidator;

  /**
   * @param invalidator applies an invalidation on every node of the cluster
   */
  AuthCacheApi(AuthCache cache, ClusterInvalidator invalidator) {
    this.cache = cache;
    this.invalidator = invalidator;
  }

  @Override
  public void mount(Router router) {
    router
        .get("/_/proxy/auth-cache")
        .handler(ctx -> Replies.ok(ctx, Future.succeededFuture(statsJson(cache.stats()))));
    router.post("/_/proxy/auth-cache/invalidate").handler(guarded(this::invalidate));
  }

  private void invalidate(RoutingContext ctx) {
    Invalidation inv =
        Invalidation.fromJson(AdminBody.of(ctx).length() == 0 ? null : Replies.jsonObject(ctx));
    invalidator.invalidate(inv).onSuccess(outcome -> answer(ctx, outcome)).onFailure(ctx::fail);
  }

  /**
   * 204 when every member confirmed; 202 naming the members that did not, in time. Either way
   * {@code X-Invalidated-Nodes} counts the nodes that applied it (this one included), so that a
   * caller knows how far it reached.
   */
  private static void answer(RoutingContext ctx, ClusterInvalidator.Outcome outcome) {
    ctx.response()
        .putHeader("X-Invalidated-Entries", Long.toString(outcome.removedHere()))
        .putHeader(INVALIDATED_NODES, Integer.toString(outcome.appliedNodes()));
    if (outcome.unacknowledged().isEmpty()) {
      ctx.response().setStatusCode(204).end();
      return;
    }
    ctx.response()
        .setStatusCode(202)
        .putHeader("Content-Type", "application/json")
        .end(
            new JsonObject()
                .put("removedHere", outcome.removedHere())
                .put("appliedNodes", outcome.appliedNodes())
                .put("unacknowledged", new JsonArray(outcome.unacknowledged()))
                .encode());
  }

  private JsonObject statsJson(AuthCacheStats s) {
    return new JsonObject()
        .put("enabled", cache.options().enabled())
        .put("size", s.size())
        .put("bytes", s.bytes())
        .put("bytesPerEntry", s.size() == 0 ? 0 : s.bytes() / s.size())
        .put("hits", s.hits())
        .put("misses", s.misses())
        .put("hitRatio", s.hitRatio())
        .put("authCalls", s.loads())
        .put("authCallFailures", s.loadFailures())
        .put("evictions", s.evictions())
        .put("staleServed", s.staleServed());
  }
}
