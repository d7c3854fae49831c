/**
 * The auth-decision cache of the gateway: Caffeine and Micrometer, no Vert.x, no HTTP. Its settings
 * ({@code auth.cache.*}) are declared in {@link io.okapigw.cache.AuthCacheOptions} with the {@code
 * config} module.
 *
 * <p>Public API: {@link io.okapigw.cache.AuthCache} (created by its static {@code create}), {@link
 * io.okapigw.cache.AuthCacheOptions}, {@link io.okapigw.cache.AuthCacheKey}, {@link
 * io.okapigw.cache.AuthDecision} and {@link io.okapigw.cache.AuthCacheStats}. Everything else in
 * the package is package-private implementation.
 *
 * <p>Typical use in the auth stage:
 *
 * <pre>{@code
 * AuthCache cache = AuthCache.create(AuthCacheOptions.from(settings), registry);
 * AuthCacheKey key = new AuthCacheKey(tenant, method, handler.pathPattern(), userId, token);
 * cache.get(key, k -> callAuthFilter(k))      // CompletableFuture<AuthDecision>
 *     .thenAccept(decision -> ...);           // grant: set headers; else pass status and body
 * }</pre>
 *
 * <p>Operations note: Caffeine logs each failed load (an auth call that failed with an exception
 * other than a timeout or cancellation) at WARNING through {@link System.Logger}, logger {@code
 * com.github.benmanes.caffeine.cache.LocalAsyncCache}.
 */
package io.okapigw.cache;
