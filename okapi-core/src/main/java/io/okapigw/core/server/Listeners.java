package io.okapigw.core.server;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.internal.ContextInternal;
import java.util.ArrayList;
import java.util.List;

/**
 * The node's listeners on Netty ({@link HttpListener}), serving on the event loops of its {@code
 * instances}, started and shut down together.
 */
public final class Listeners {

  private final Vertx vertx;
  private final List<ContextInternal> loops;
  private final HttpServerOptions http;
  private final ServerOptions timeouts;
  private final Drain drain;
  private final ConnectionMetrics metrics;
  private final boolean duplicateContexts;
  private final List<HttpListener> started = new ArrayList<>();

  /**
   * @param instances how many event loops serve the connections
   * @param http the decoders' limits
   * @param timeouts the {@code server.*} timeouts
   * @param drain whether the node drains
   * @param metrics where connections are counted
   * @param duplicateContexts whether each request runs on a Vert.x context of its own (tracing)
   */
  public Listeners(
      Vertx vertx,
      int instances,
      HttpServerOptions http,
      ServerOptions timeouts,
      Drain drain,
      ConnectionMetrics metrics,
      boolean duplicateContexts) {
    this.vertx = vertx;
    this.loops = HttpListener.loops(vertx, instances);
    this.http = http;
    this.timeouts = timeouts;
    this.drain = drain;
    this.metrics = metrics;
    this.duplicateContexts = duplicateContexts;
  }

  /** Starts the listeners, in this order. */
  public Future<Void> listen(List<Listener> listeners) {
    Future<Void> all = Future.succeededFuture();
    for (Listener spec : listeners) {
      all = all.compose(v -> listen(spec));
    }
    return all;
  }

  /**
   * Starts one listener: on every loop, or on the first only if it closes its oldest idle
   * connection past its limit (the health listener).
   */
  public Future<Void> listen(Listener spec) {
    HttpListener listener =
        new HttpListener(
            vertx,
            spec.closeOldestIdle() ? loops.subList(0, 1) : loops,
            http,
            timeouts,
            drain,
            metrics,
            spec,
            duplicateContexts);
    started.add(listener);
    return listener.listen(spec.host(), spec.port());
  }

  /**
   * Stops accepting; draining, the answers in progress get what is left of {@code
   * shutdown.drain-timeout}, else their connections are closed at once.
   */
  public Future<Void> shutdown() {
    return shutdown(drain.millisLeft());
  }

  /**
   * Stops accepting; the answers in progress get up to {@code timeoutMillis} (0: closed at once).
   */
  public Future<Void> shutdown(long timeoutMillis) {
    return Future.all(started.stream().map(l -> l.shutdown(timeoutMillis)).toList()).mapEmpty();
  }
}
