package io.okapigw.core.server;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import java.util.List;

/**
 * One event loop's listeners (the public one, and the admin one when {@code admin.port} is set),
 * each serving the handler it is given; their client connections are this loop's ({@link
 * ClientConnections}). The node assembles the handlers once; a verticle only listens.
 */
public final class HttpVerticle extends VerticleBase {

  /**
   * One listener.
   *
   * @param host the interface
   * @param port the port
   * @param handler what it serves
   */
  public record Listener(String host, int port, Handler<HttpServerRequest> handler) {}

  private final HttpServerOptions options;
  private final ServerOptions timeouts;
  private final List<Listener> listeners;

  /**
   * @param options the listeners' HTTP options (header size, chunk size, ...)
   * @param timeouts the {@code server.*} timeouts
   * @param listeners started in this order
   */
  public HttpVerticle(HttpServerOptions options, ServerOptions timeouts, List<Listener> listeners) {
    this.options = options;
    this.timeouts = timeouts;
    this.listeners = List.copyOf(listeners);
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
    return new ClientConnections(vertx, options, timeouts)
        .server(listener.handler())
        .listen(listener.port(), listener.host());
  }
}
