package io.okapigw.core.auth;

import io.okapigw.core.http.HttpError;
import io.vertx.core.Future;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.LongFunction;
import java.util.function.LongSupplier;

/**
 * Which auth modules are cold on this node, and so how long a call to one may wait: a module is
 * cold for {@code auth.warm-up} from this node's first call to it (an auth-filter call or a handler
 * call, {@link AuthModuleCalls}), and again from a call that finds it unreachable (no connection, a
 * reset: a module restarting); a cold module's calls may wait {@code auth.cold-timeout}, a warm
 * one's auth-filter calls {@code auth.timeout} and its handler calls {@code auth.handler-timeout}.
 * One per node, shared by both kinds of call: behind our gateway a cold mod-authtoken beside a
 * loaded CPU took longer than the 10 s handler timeout to sign a login's token ({@code
 * /token/sign}, mod-login's call through the gateway) while its filter calls had the cold budget. A
 * freshly started FOLIO auth chain answers its first decisions that need no look-up at once (a
 * login's own), and those that do (its {@code /users} and {@code /perms} look-ups through the
 * gateway to modules as cold as it is) took longer than {@code auth.timeout} on a loaded machine;
 * Okapi sets no limit. A call that timed out does not make a module cold: a hung module costs each
 * request {@code auth.timeout} after its warm-up, and opens its breaker ({@link AuthBreakers}) in
 * it too. A restart is learnt only from a call that found the module unreachable: one restarted
 * while no call came stays warm. Time comes from the node's ticker, so tests move a fake clock.
 * Thread-safe; one entry per auth module called.
 */
public final class ColdAuthModules {

  private final long warmMillis;
  private final long coldMillis;
  private final long warmUpNanos;
  private final LongSupplier nanoTime;
  private final ConcurrentMap<String, Long> warmUpStart = new ConcurrentHashMap<>();

  /**
   * @param options {@code auth.timeout}, {@code auth.cold-timeout} (never shorter) and {@code
   *     auth.warm-up}
   * @param nanoTime the node's monotonic time
   */
  public ColdAuthModules(AuthOptions options, LongSupplier nanoTime) {
    this.warmMillis = options.timeout().toMillis();
    this.coldMillis = Math.max(warmMillis, options.coldTimeout().toMillis());
    this.warmUpNanos = options.warmUp().toNanos();
    this.nanoTime = nanoTime;
  }

  /**
   * @return whether the module's warm-up is over (false for a module not called yet)
   */
  boolean isWarm(String moduleId) {
    Long start = warmUpStart.get(moduleId);
    return start != null && nanoTime.getAsLong() - start >= warmUpNanos;
  }

  /**
   * Makes an auth-filter call with the module's time-out, and learns from its outcome.
   *
   * @param call makes the call, given how long the module may stay silent, in milliseconds
   * @return the call's outcome
   */
  <T> Future<T> call(String moduleId, LongFunction<Future<T>> call) {
    return call(moduleId, warmMillis, call);
  }

  /**
   * Makes a call to the module with its time-out, and learns from its outcome.
   *
   * @param warm how long the call may wait once the module is warm, in milliseconds; a cold one's
   *     may wait {@code auth.cold-timeout} (or this, if longer)
   * @param call makes the call, given how long the module may stay silent, in milliseconds
   * @return the call's outcome
   */
  <T> Future<T> call(String moduleId, long warm, LongFunction<Future<T>> call) {
    warmUpStart.putIfAbsent(moduleId, nanoTime.getAsLong());
    return call.apply(isWarm(moduleId) ? warm : Math.max(warm, coldMillis))
        .andThen(
            result -> {
              if (result.failed() && unreachable(result.cause())) {
                warmUpStart.put(moduleId, nanoTime.getAsLong());
              }
            });
  }

  /** No connection, a reset, no instance: a 502 (a time-out is a 504). */
  private static boolean unreachable(Throwable failure) {
    return failure instanceof HttpError error && error.status() == 502;
  }
}
