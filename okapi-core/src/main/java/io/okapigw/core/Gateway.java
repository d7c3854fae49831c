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
public final class Gateway {

  private final GatewayNode node;

  private Gateway(GatewayNode node) {
    this.node = node;
  }

  /**
   * Starts a single-node gateway with an in-memory registry.
   *
   * @param vertx the Vert.x instance to deploy on
   * @param options settings; port 0 picks a free port
   * @return the node once it listens; fails if the port is taken
   */
  public static Future<Gateway> start(Vertx vertx, GatewayOptions options) {
    return start(vertx, options, Ticker.systemTicker(), Scheduler.system(vertx));
  }

  /**
   * Starts a node whose auth cache runs on the given time source (tests advance a fake one instead
   * of sleeping; token {@code exp} is read against a wall clock that moves with it).
   */
  public static Future<Gateway> start(Vertx vertx, GatewayOptions options, Ticker ticker) {
    return start(vertx, options, ticker, Scheduler.system(vertx));
  }

  /**
   * Starts a node whose auth cache runs on {@code ticker} and whose module timers run on {@code
   * scheduler} (tests advance fake ones instead of sleeping).
   */
  public static Future<Gateway> start(
      Vertx vertx, GatewayOptions options, Ticker ticker, Scheduler scheduler) {
    return GatewayNode.start(vertx, options, ticker, scheduler).map(Gateway::new);
  }

  /**
   * @return the port the node listens on
   */
  public int port() {
    return node.options().port();
  }

  /**
   * @return the port of the admin listener, or -1 if the node has none ({@code admin.port})
   */
  public int adminPort() {
    return node.options().admin().port();
  }

  /**
   * @return the URL modules reach this node at (X-Okapi-Url)
   */
  public String okapiUrl() {
    return node.okapiUrl();
  }

  /**
   * @return this node's id in the cluster ({@code local} when not clustered)
   */
  public String nodeId() {
    return node.nodeId();
  }

  /**
   * @return the registry the admin API works on
   */
  public Registry registry() {
    return node.registry();
  }

  /**
   * Drains the node, as on SIGTERM: readiness ({@code /readiness}, {@code /_/proxy/health}) false
   * at once, every answer with {@code Connection: close}; after {@code shutdown.readiness-delay}
   * (on the node's scheduler) client requests are refused (503) while the requests in flight, and
   * their modules' call backs, are served; once they are answered, or {@code
   * shutdown.drain-timeout} later, the listeners close; then as {@link #stop}. The Vert.x instance
   * (and with it the cluster) is left to the caller to close.
   */
  public Future<Void> drain() {
    return node.drain();
  }

  /** Closes the node's listeners and its clients. */
  public Future<Void> stop() {
    return node.stop();
  }
}
