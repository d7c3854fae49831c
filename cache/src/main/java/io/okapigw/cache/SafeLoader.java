package io.okapigw.cache;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * Calls a caller-supplied loader so that a throw, a null future or a null decision all come back as
 * a failed future.
 */
final class SafeLoader {

  private SafeLoader() {}

  static CompletableFuture<AuthDecision> call(
      Function<AuthCacheKey, CompletableFuture<AuthDecision>> loader, AuthCacheKey key) {
    try {
      CompletableFuture<AuthDecision> future = loader.apply(key);
      if (future == null) {
        return CompletableFuture.failedFuture(
            new NullPointerException("auth loader returned null for " + key));
      }
      return future.thenApply(
          decision ->
              Objects.requireNonNull(decision, () -> "auth loader completed with null for " + key));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }
}
