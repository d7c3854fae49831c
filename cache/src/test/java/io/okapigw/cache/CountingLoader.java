package io.okapigw.cache;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;

/** A loader standing in for the auth module call, counting how often it is called. */
final class CountingLoader implements Function<AuthCacheKey, CompletableFuture<AuthDecision>> {

  private final AtomicInteger calls = new AtomicInteger();
  private final Supplier<CompletableFuture<AuthDecision>> answer;

  private CountingLoader(Supplier<CompletableFuture<AuthDecision>> answer) {
    this.answer = answer;
  }

  static CountingLoader answering(AuthDecision decision) {
    return new CountingLoader(() -> CompletableFuture.completedFuture(decision));
  }

  static CountingLoader failing(Throwable error) {
    return new CountingLoader(() -> CompletableFuture.failedFuture(error));
  }

  /** Every call returns the same future, which the test completes. */
  static CountingLoader pending(CompletableFuture<AuthDecision> future) {
    return new CountingLoader(() -> future);
  }

  @Override
  public CompletableFuture<AuthDecision> apply(AuthCacheKey key) {
    calls.incrementAndGet();
    return answer.get();
  }

  int calls() {
    return calls.get();
  }
}
