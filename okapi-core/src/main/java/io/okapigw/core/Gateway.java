package io.okapigw.core;

import com.github.benmanes.caffeine.cache.Ticker;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.registry.Registry;
import io.okapigw.core.timer.Scheduler;
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
    return GatewayNode.start(vertx, options, Ticker.systemTicker(), Scheduler.system(vertx));
  }

  /**
   * Starts a node whose auth cache runs on the given time source (tests advance a fake one instead
   * of sleeping; token {@code exp} is read against a wall clock that moves with it).
   */
  static Future<Gateway> start(Vertx vertx, GatewayOptions options, Ticker ticker) {
    return GatewayNode.start(vertx, options, ticker, Scheduler.system(vertx));
  }

  /**
   * Starts a node whose auth cache runs on {@code ticker} and whose module timers run on {@code
   * scheduler} (tests advance fake ones instead of sleeping).
   */
  static Future<Gateway> start(
      Vertx vertx, GatewayOptions options, Ticker ticker, Scheduler scheduler) {
    return GatewayNode.start(vertx, options, ticker, scheduler);
  }

  /**
   * @return the port the node listens on
   */
  int port();

  /**
   * @return the port of the admin listener, or -1 if the node has none ({@code admin.port})
   */
  int adminPort();

  /**
   * @return the URL modules reach this node at (X-Okapi-Url)
   */
  String okapiUrl();

  /**
   * @return this node's id in the cluster ({@code local} when not clustered)
   */
  String nodeId();

  /**
   * @return the registry the admin API works on
   */
  Registry registry();

  /** Undeploys the node's verticles and closes its clients. */
  Future<Void> stop();
}
