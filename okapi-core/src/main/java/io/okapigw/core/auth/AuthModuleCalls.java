package io.okapigw.core.auth;

import io.okapigw.core.http.HttpError;
import io.okapigw.core.routing.Pipeline;
import io.okapigw.core.routing.Stage;
import io.vertx.core.Future;
import io.vertx.core.http.HttpServerResponse;
import java.time.Duration;
import java.util.function.LongFunction;

/**
 * The handler calls of a tenant to the module that provides the tenant's auth filter ({@code
 * /authn/login}, {@code /authn/refresh}, the rest of its API), bounded as its auth-filter calls
 * are: a client that cannot get in without that module must not wait for it longer than a request
 * that needs its decision. Which calls: every request whose pipeline's handler is the module of the
 * pipeline's auth filter (same module id), whatever its path, because a hung module hangs all its
 * handlers alike, and the routing table already knows it (a path list would miss a module's own
 * paths). Such a call
 *
 * <ul>
 *   <li>gets 503 with {@code Retry-After} at once, never reaching the module, while the module's
 *       breaker ({@link AuthBreakers}) is open, but for the breaker's probe;
 *   <li>may stay silent {@code auth.handler-timeout} (not {@code proxy.idle-timeout}), then 504;
 *       {@code auth.cold-timeout} while the module is in its warm-up ({@link ColdAuthModules}, the
 *       node's, shared with the auth-filter calls);
 *   <li>counts for the breaker like an auth-filter call: one that got no answer (no connection,
 *       reset, the timeout) is a failure, any answer closes the breaker; one whose client left, or
 *       whose client's body stalled, counts for nothing.
 * </ul>
 */
public final class AuthModuleCalls {

  private final AuthBreakers breakers;
  private final ColdAuthModules cold;
  private final long timeoutMillis;

  /**
   * @param breakers the auth modules' breakers, shared with the auth-filter calls
   * @param cold which auth modules are in their warm-up, shared with the auth-filter calls
   * @param timeout {@code auth.handler-timeout}
   */
  public AuthModuleCalls(AuthBreakers breakers, ColdAuthModules cold, Duration timeout) {
    this.breakers = breakers;
    this.cold = cold;
    this.timeoutMillis = timeout.toMillis();
  }

  /**
   * @return whether the pipeline's handler is the module of its auth filter
   */
  public static boolean bounds(Pipeline pipeline) {
    Stage handler = pipeline.handler();
    return pipeline.auth().map(a -> a.moduleId().equals(handler.moduleId())).orElse(false);
  }

  /**
   * Makes the handler call, through the module's breaker if {@link #bounds} says so.
   *
   * @param tenant the request's tenant
   * @param client the client's response: a call that fails once it is closed is not the module's
   *     failure
   * @param call opens and sends the handler call, given how long the module may stay silent in
   *     milliseconds (0: the module's own call timeout, for a call not bounded); its future ends
   *     with the module's answer head
   * @return the call's outcome; failed with 503 at once while the breaker is open
   */
  public <T> Future<T> call(
      String tenant, Pipeline pipeline, HttpServerResponse client, LongFunction<Future<T>> call) {
    if (!bounds(pipeline)) {
      return call.apply(0);
    }
    String moduleId = pipeline.handler().moduleId();
    return breakers.call(
        tenant,
        moduleId,
        () -> cold.call(moduleId, timeoutMillis, call),
        e -> !client.closed() && modules(e));
  }

  /** A failure of the module's, not a client's 4xx (408: its body stalled). */
  private static boolean modules(Throwable e) {
    return !(e instanceof HttpError error) || error.status() >= 500;
  }
}
