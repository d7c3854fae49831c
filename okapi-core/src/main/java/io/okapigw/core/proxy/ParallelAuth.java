package io.okapigw.core.proxy;

import io.okapigw.cache.AuthDecision;
import io.okapigw.core.auth.ConfirmedTokens;
import io.okapigw.core.auth.ConfirmedTokens.Identity;
import io.okapigw.core.routing.Pipeline;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import java.util.Map;

/**
 * Auth in parallel with the handler for safe requests ({@code auth.parallel=safe}): on a cache miss
 * for a GET or HEAD whose pipeline needs nothing from the auth module's answer (no module
 * permissions, no desired permissions, no pre filters), of a token the auth module has already
 * accepted for the tenant ({@link ConfirmedTokens}: a fresh grant of it on another route is in the
 * auth cache), the handler is called at once, with the user the auth module named and the token it
 * hands modules for it, and no permissions (the auth module has not decided on this route yet; a
 * route without desired permissions gives a handler nothing to read in them), and its response is
 * held, paused, until the auth module decides. Granted: the response is relayed. Refused: it is
 * discarded (its exchange given up, the connection closed unless the response had come whole) and
 * the client gets the auth module's refusal, as in sequential mode. Any other request waits for the
 * decision: a handler never acts for a user, or with a token, the auth module has not vouched for.
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
   * @param known what the auth module said of the request's token before
   * @return the handler's status once relayed; fails with the refusal if auth says no
   */
  Future<Integer> run(ProxyRequest request, Future<AuthDecision> decision, Identity known) {
    Future<Exchange> held = forwarder.send(request.withGrant(provisional(known)));
    return decision.transform(
        auth ->
            auth.failed()
                ? Forwarder.discard(held).compose(v -> Future.failedFuture(auth.cause()))
                : held.compose(
                    exchange -> forwarder.relay(request.withGrant(auth.result()), exchange)));
  }

  /**
   * What the handler is told before the decision: the user and the token the auth module confirmed
   * for the request's token, no permissions.
   */
  private static AuthDecision provisional(Identity known) {
    return AuthDecision.grant(202, known.token(), known.userId(), "", Map.of("_", known.token()));
  }
}
