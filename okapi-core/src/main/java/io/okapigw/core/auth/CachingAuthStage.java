package io.okapigw.core.auth;

import io.micrometer.core.instrument.MeterRegistry;
import io.okapigw.cache.AuthCache;
import io.okapigw.cache.AuthCacheKey;
import io.okapigw.cache.AuthDecision;
import io.okapigw.core.tracing.AuthOutcome;
import io.okapigw.core.tracing.RequestTrace;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * The gateway's auth stage: looks the decision up in the {@link AuthCache} (key: tenant, method,
 * matched route (see {@link io.okapigw.core.routing.Pipeline#cacheRoute()}), request user id,
 * token) and calls the auth filter only on a miss; concurrent misses on one key share the call.
 * With the cache turned off every request calls. An auth filter whose breaker is open ({@link
 * AuthBreakers}) is not called: the load fails at once, so an expired decision is served stale
 * without waiting where stale-if-error allows. Counts every real auth call in {@code
 * okapi_auth_calls_total{tenant,outcome}}. Tells {@link ConfirmedTokens} of every grant loaded.
 */
public final class CachingAuthStage implements AuthStage {

  private final AuthCache cache;
  private final AuthFilterClient client;
  private final AuthCallMetrics metrics;
  private final ConfirmedTokens confirmed;
  private final AuthBreakers breakers;

  /**
   * @param confirmed told of every grant loaded, so its token counts as confirmed
   * @param breakers keep an auth filter that does not answer from being asked
   */
  public CachingAuthStage(
      AuthCache cache,
      AuthFilterClient client,
      MeterRegistry registry,
      ConfirmedTokens confirmed,
      AuthBreakers breakers) {
    this.cache = cache;
    this.client = client;
    this.metrics = new AuthCallMetrics(registry);
    this.confirmed = confirmed;
    this.breakers = breakers;
  }

  @Override
  public Future<AuthDecision> authorize(AuthRequest request) {
    AuthCacheKey key =
        new AuthCacheKey(
            request.tenant(),
            request.method().name(),
            request.cacheRoute(),
            request.userId(),
            request.token());
    return decide(
        key,
        () ->
            breakers
                .call(request.tenant(), request.filter().moduleId(), () -> client.call(request))
                .onSuccess(decision -> confirmed.granted(request, key, decision)));
  }

  /**
   * The decision cached under {@code key}, else {@code load}'s, cached if cacheable; concurrent
   * misses on one key share one load. Every load is counted in {@code okapi_auth_calls_total}, the
   * request's trace told how it was decided.
   *
   * @param load asks whoever decides (the auth filter, Keycloak)
   * @return a grant; failed with the refusal ({@link AuthRefusal}) or with 503
   */
  public Future<AuthDecision> decide(AuthCacheKey key, Supplier<Future<AuthDecision>> load) {
    RequestTrace trace = RequestTrace.current();
    if (trace != null) {
      return traced(key, load, trace);
    }
    return decided(cache.get(key, k -> load(key.tenant(), load)));
  }

  private Future<AuthDecision> decided(CompletableFuture<AuthDecision> decision) {
    if (decision.isDone() && !decision.isCompletedExceptionally()) {
      // a hit: answer at once, on this thread, with no context hop
      return Future.succeededFuture(decision.join()).map(Grants::requireGrant);
    }
    // a shared load may complete on another event loop: come back to this request's context
    Context context = Vertx.currentContext();
    return Future.fromCompletionStage(decision, context)
        .recover(CachingAuthStage::unwrap)
        .map(Grants::requireGrant);
  }

  /** As {@link #authorize}, telling the request's trace how it was decided. */
  private Future<AuthDecision> traced(
      AuthCacheKey key, Supplier<Future<AuthDecision>> load, RequestTrace trace) {
    boolean[] loaded = {false};
    CompletableFuture<AuthDecision> decision =
        cache.get(
            key,
            k -> {
              loaded[0] = true;
              return load(key.tenant(), load);
            });
    AuthOutcome outcome =
        loaded[0] ? AuthOutcome.MISS : decision.isDone() ? AuthOutcome.HIT : AuthOutcome.COALESCED;
    return decided(decision)
        .andThen(
            result -> {
              boolean stale = result.succeeded() && result.result().stale();
              trace.authOutcome(
                  result.failed() && result.cause() instanceof AuthRefusal
                      ? AuthOutcome.DENIED
                      : stale ? AuthOutcome.STALE : outcome);
            });
  }

  private static Future<AuthDecision> unwrap(Throwable e) {
    return Future.failedFuture(
        e instanceof CompletionException && e.getCause() != null ? e.getCause() : e);
  }

  private CompletableFuture<AuthDecision> load(String tenant, Supplier<Future<AuthDecision>> load) {
    return load.get()
        .andThen(result -> metrics.record(tenant, result))
        .toCompletionStage()
        .toCompletableFuture();
  }
}
