package io.okapigw.core.server;

import io.okapigw.core.config.ServerOptions;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The client connections of one listener (one HTTP server of one event loop): the
 * {@code server.*} timeouts. Confined to the listener's event loop.
 *
 * <p>The idle timeout is Vert.x's own; the header timeout has no Vert.x option and is kept per
 * connection ({@link ConnectionGuard}) with the public API.
 */
public final class ClientConnections {

  private final Vertx vertx;
  private final HttpServerOptions options;
  private final long headerTimeoutNanos;
  private final Map<HttpConnection, ConnectionGuard> guards = new IdentityHashMap<>();

  /**
   * @param options the listener's options; HTTP/2 over cleartext is turned off (the header
   *     timeout is HTTP/1.1's, kept from the connection's start) and the idle timeout set
   * @param timeouts the {@code server.*} timeouts
   */
  public ClientConnections(Vertx vertx, HttpServerOptions options, ServerOptions timeouts) {
    this.vertx = vertx;
    this.options = new HttpServerOptions(options)
        .setHttp2ClearTextEnabled(false)
        .setIdleTimeout((int) timeouts.idleTimeout().toMillis())
        .setIdleTimeoutUnit(TimeUnit.MILLISECONDS);
    this.headerTimeoutNanos = timeouts.headerTimeout().toNanos();
  }

  /** @return a server whose connections are these, serving {@code requests} */
  public HttpServer server(Handler<HttpServerRequest> requests) {
    return vertx.createHttpServer(options)
        .connectionHandler(this::connected)
        .requestHandler(requests);
  }

  /**
   * To be called first for every request.
   *
   * @return false if the request's connection is being closed: it must not be served
   */
  public boolean admit(HttpServerRequest request) {
    ConnectionGuard guard = guards.get(request.connection());
    return guard == null || guard.admit(request);
  }

  private void connected(HttpConnection connection) {
    ConnectionGuard guard = new ConnectionGuard(vertx, connection, headerTimeoutNanos);
    guards.put(connection, guard);
    connection.closeHandler(v -> {
      guards.remove(connection);
      guard.closed();
    });
  }
}
