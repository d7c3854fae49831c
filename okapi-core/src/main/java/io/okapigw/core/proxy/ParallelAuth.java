package io.okapigw.core.proxy;

import io.okapigw.cache.AuthDecision;
import io.okapigw.core.auth.UnverifiedClaims;
import io.okapigw.core.routing.Pipeline;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import java.util.List;
import java.util.Map;

/**
 * Auth in parallel with the handler for safe requests ({@code auth.parallel=safe}): on a cache miss
 * for a GET or HEAD whose pipeline needs nothing from the auth module's answer (no module
 * permissions, no desired permissions, no pre filters), the handler is called at once, as the user
 * the token names (read unverified), and its response is held, paused, until the auth module
 * decides. Granted: the response is relayed. Refused: it is discarded (its exchange given up, the
 * connection closed unless the response had come whole) and the client gets the auth module's
 * refusal, as in sequential mode.
 */
final class ParallelAuth {

  private final Forwarder forwarder;

  ParallelAuth(Forwarder forwarder) {
    this.forwarder = forwarder;
  }

  /**
   * @return whether the request may run its handler before the auth decision
   */
  static boolean eligible(ProxyRequest request) {
    HttpMethod method = request.in().method();
    Pipeline pipeline = request.pipeline();
    return (method == HttpMethod.GET || method == HttpMethod.HEAD)
        && pipeline.pre().isEmpty()
        && pipeline.redirects().isEmpty()
        && pipeline.permissionsDesired().isEmpty()
        && pipeline.modulePermissions().isEmpty();
  }

  /**
   * @return the handler's status once relayed; fails with the refusal if auth says no
   */
  Future<Integer> run(ProxyRequest request, Future<AuthDecision> decision) {
    Future<Exchange> held = forwarder.send(request.withGrant(provisional(request)));
    return decision.transform(
        auth ->
            auth.failed()
                ? Forwarder.discard(held).compose(v -> Future.failedFuture(auth.cause()))
                : held.compose(
                    exchange -> forwarder.relay(request.withGrant(auth.result()), exchange)));
  }

  /**
   * What the handler is told before the decision: the client's token, the user the token names, and
   * the required permissions (all the auth module can grant on a route without desired ones).
   */
  private static AuthDecision provisional(ProxyRequest request) {
    String token = request.identity().token();
    String userId = UnverifiedClaims.of(token).flatMap(UnverifiedClaims::userId).orElse(null);
    return AuthDecision.grant(
        202,
        token,
        userId,
        new JsonArray(List.copyOf(request.pipeline().permissionsRequired())).encode(),
        Map.of());
  }
}
