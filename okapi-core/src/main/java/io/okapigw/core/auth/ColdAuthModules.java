package io.okapigw.core.auth;

import io.okapigw.core.http.HttpError;
import io.vertx.core.Future;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongFunction;
import java.util.function.LongSupplier;

/**
 * Which auth modules are cold on this node, and so how long an auth-filter call to one may wait: a
 * module is cold until it has answered an auth call within {@code auth.timeout}, and cold again
 * once a call to it finds it unreachable (no connection, a reset: a module restarting). A cold
 * module's calls may wait {@code auth.cold-timeout}: a freshly started FOLIO auth chain makes its
 * first decisions through look-ups to cold modules of its own ({@code /users}, {@code /perms}),
 * which on a loaded machine took longer than {@code auth.timeout}; Okapi sets no limit. A call that
 * timed out leaves a warm module warm: a hung module still costs each request {@code auth.timeout}
 * and opens its breaker ({@link AuthBreakers}). Time comes from the node's ticker, so tests move a
 * fake clock. Thread-safe; one entry per auth module called. A restart is learnt only from a call
 * that found the module unreachable: one restarted while no call came stays warm.
 */
final class ColdAuthModules {

  private final long warmMillis;
  private final long coldMillis;
  private final LongSupplier nanoTime;
  private final Set<String> warm = ConcurrentHashMap.newKeySet();

  /**
   * @param options {@code auth.timeout} and {@code auth.cold-timeout} (never shorter)
   * @param nanoTime the node's monotonic time
   */
  ColdAuthModules(AuthOptions options, LongSupplier nanoTime) {
    this.warmMillis = options.timeout().toMillis();
    this.coldMillis = Math.max(warmMillis, options.coldTimeout().toMillis());
    this.nanoTime = nanoTime;
  }

  /**
   * @return whether the module has answered an auth call in time since it was last unreachable
   */
  boolean isWarm(String moduleId) {
    return warm.contains(moduleId);
  }

  /**
   * Makes an auth call with the module's time-out, and learns from its outcome.
   *
   * @param call makes the call, given how long the module may stay silent, in milliseconds
   * @return the call's outcome
   */
  <T> Future<T> call(String moduleId, LongFunction<Future<T>> call) {
    long start = nanoTime.getAsLong();
    return call.apply(isWarm(moduleId) ? warmMillis : coldMillis)
        .andThen(
            result -> {
              if (result.succeeded()) {
                if (nanoTime.getAsLong() - start <= warmMillis * 1_000_000L) {
                  warm.add(moduleId);
                }
              } else if (unreachable(result.cause())) {
                warm.remove(moduleId);
              }
            });
  }

  /** No connection, a reset, no instance: a 502 (a time-out is a 504). */
  private static boolean unreachable(Throwable failure) {
    return failure instanceof HttpError error && error.status() == 502;
  }
}
