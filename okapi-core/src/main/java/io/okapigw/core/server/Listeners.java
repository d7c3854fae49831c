package io.okapigw.core.server;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.internal.ContextInternal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

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

  /**
   * @return whether the listeners are Netty's ({@code OKAPIGW_TRANSPORT=netty} or {@code
   *     -Dokapigw.transport=netty}) rather than Vert.x's HTTP servers, while the Netty path is
   *     built
   */
  public static boolean nettyTransport() {
    String transport = System.getProperty("okapigw.transport", System.getenv("OKAPIGW_TRANSPORT"));
    return transport != null && transport.toLowerCase(Locale.ROOT).equals("netty");
  }

  /** Starts the listeners, in this order. */
  public Future<Void> listen(List<HttpVerticle.Listener> listeners) {
    Future<Void> all = Future.succeededFuture();
    for (HttpVerticle.Listener spec : listeners) {
      all = all.compose(v -> listen(spec));
    }
    return all;
  }

  private Future<Void> listen(HttpVerticle.Listener spec) {
    HttpListener listener =
        new HttpListener(
            vertx,
            loops,
            http,
            timeouts,
            drain,
            metrics,
            spec.limit(),
            spec.handler(),
            duplicateContexts);
    started.add(listener);
    return listener.listen(spec.host(), spec.port());
  }

  /**
   * Stops accepting; the answers in progress get up to {@code timeoutMillis} (0: closed at once).
   */
  public Future<Void> shutdown(long timeoutMillis) {
    return Future.all(started.stream().map(l -> l.shutdown(timeoutMillis)).toList()).mapEmpty();
  }
}
