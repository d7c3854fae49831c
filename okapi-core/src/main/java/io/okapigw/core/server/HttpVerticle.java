package io.okapigw.core.server;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One event loop's listeners (the public one, and the admin one when {@code admin.port} is set),
 * each serving the handler it is given; their client connections are this loop's ({@link
 * ClientConnections}). The node assembles the handlers once; a verticle only listens.
 */
public final class HttpVerticle extends VerticleBase {

  private final HttpServerOptions options;
  private final ServerOptions timeouts;
  private final List<Listener> listeners;
  private final Drain drain;
  private final ConnectionMetrics metrics;
  private final List<HttpServer> servers = new ArrayList<>();

  /**
   * @param options the listeners' HTTP options (header size, chunk size, ...)
   * @param timeouts the {@code server.*} timeouts
   * @param listeners started in this order
   * @param drain whether the node drains, and for how long
   * @param metrics the node's count of client connections
   */
  public HttpVerticle(
      HttpServerOptions options,
      ServerOptions timeouts,
      List<Listener> listeners,
      Drain drain,
      ConnectionMetrics metrics) {
    this.options = options;
    this.timeouts = timeouts;
    this.listeners = List.copyOf(listeners);
    this.drain = drain;
    this.metrics = metrics;
  }

  @Override
  public Future<?> start() {
    Future<?> started = Future.succeededFuture();
    for (Listener listener : listeners) {
      started = started.compose(v -> listen(listener));
    }
    return started;
  }

  private Future<?> listen(Listener listener) {
    HttpServer server =
        new ClientConnections(vertx, options, timeouts, drain, metrics, listener.limit())
            .server(listener.handler());
    servers.add(server);
    return server.listen(listener.port(), listener.host());
  }

  /**
   * Closes the listeners. Draining, they stop accepting at once and close each connection when its
   * answer in progress is sent, at the latest when {@code shutdown.drain-timeout} has passed since
   * clients were refused; else at once.
   */
  @Override
  public Future<?> stop() {
    long timeout = drain.millisLeft();
    return Future.all(
        servers.stream().map(server -> server.shutdown(timeout, TimeUnit.MILLISECONDS)).toList());
  }
}
