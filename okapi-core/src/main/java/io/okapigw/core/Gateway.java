package io.okapigw.core;

import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.registry.Registry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/**
 * A running gateway node: admin API, registry, routing tables and proxy on one port.
 *
 * <pre>{@code
 * Gateway.start(vertx, GatewayOptions.defaults(9130)).onSuccess(gw -> ...);
 * }</pre>
 */
public interface Gateway {

  /**
   * Starts a single-node gateway with an in-memory registry.
   *
   * @param vertx the Vert.x instance to deploy on
   * @param options settings; port 0 picks a free port
   * @return the node once it listens; fails if the port is taken
   */
  static Future<Gateway> start(Vertx vertx, GatewayOptions options) {
    return GatewayNode.start(vertx, options);
  }

  /** @return the port the node listens on */
  int port();

  /** @return the URL modules reach this node at (X-Okapi-Url) */
  String okapiUrl();

  /** @return the registry the admin API works on */
  Registry registry();

  /** Undeploys the node's verticles and closes its clients. */
  Future<Void> stop();
}
