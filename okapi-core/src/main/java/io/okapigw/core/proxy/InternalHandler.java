package io.okapigw.core.proxy;

import io.okapigw.core.routing.Stage;
import io.vertx.core.Future;
import io.vertx.core.http.HttpServerRequest;

/**
 * Serves, inside the gateway, the handlers of its own module (the admin API), once the request has
 * passed the auth filter and pre filters like any other.
 */
public interface InternalHandler {

  /**
   * @return whether {@code handler} is served here rather than by a module instance
   */
  boolean serves(Stage handler);

  /**
   * Serves the request (still paused) and answers the client.
   *
   * @param tenant the tenant the request was routed and authorized for
   * @return the status answered, once the response has ended
   */
  Future<Integer> handle(HttpServerRequest in, String tenant);
}
