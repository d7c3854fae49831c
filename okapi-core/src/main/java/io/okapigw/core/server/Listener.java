package io.okapigw.core.server;

import io.vertx.core.Handler;
import io.vertx.core.http.HttpServerRequest;

/**
 * One listener of the node: the public one, the admin one, the health one.
 *
 * @param host the interface
 * @param port the port
 * @param handler what it serves: every request a connection admits
 * @param limit its connections open at once, over every event loop
 * @param closeOldestIdle past the limit, a new connection closes the oldest idle one (waiting for a
 *     request's head) and is served in its place, so that idle connections cannot keep new ones out
 *     (the health listener's probes); closed at once only when none is idle. Such a listener serves
 *     on one event loop.
 */
public record Listener(
    String host,
    int port,
    Handler<HttpServerRequest> handler,
    ConnectionLimit limit,
    boolean closeOldestIdle) {

  /** A listener whose connections past its limit are closed at once. */
  public Listener(
      String host, int port, Handler<HttpServerRequest> handler, ConnectionLimit limit) {
    this(host, port, handler, limit, false);
  }
}
