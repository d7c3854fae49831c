package io.okapigw.core.server;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.util.concurrent.EventExecutor;
import io.okapigw.core.http.QuickAck;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.VertxInternal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One listening socket of the node, on Netty directly: it accepts on Vert.x's acceptor loop and
 * serves each connection ({@link ClientConnection}) on one of the given event loops (Vert.x's, so
 * that its requests' module calls and their connections stay on that thread), reading HTTP/1.x
 * strictly ({@link StrictRequestDecoder}), with the {@code server.*} timeouts and the listener's
 * {@link ConnectionLimit}; its requests go to the handler it is given, on a Vert.x context of their
 * loop. Thread-safe.
 */
public final class HttpListener {

  /**
   * A connection's write buffer: writable again below 64 KiB, not writable above 256 KiB, where the
   * relay that feeds it stops reading the module.
   */
  static final WriteBufferWaterMark WATER_MARK = new WriteBufferWaterMark(64 * 1024, 256 * 1024);

  private final VertxInternal vertx;
  private final Map<EventLoop, ContextInternal> contexts;
  private final HttpServerOptions http;
  private final long headerTimeoutNanos;
  private final long idleTimeoutMillis;
  private final Drain drain;
  private final ConnectionMetrics metrics;
  private final ConnectionLimit limit;
  private final Handler<HttpServerRequest> handler;
  private final boolean closeOldestIdle;
  private final boolean duplicateContexts;
  private final Set<ClientConnection> open = ConcurrentHashMap.newKeySet();

  /** With {@code closeOldestIdle} only, confined to its one loop: the connections, oldest first. */
  private final Set<ClientConnection> oldestFirst = new LinkedHashSet<>();

  private volatile Promise<Void> shutDown;
  private Channel server;

  /**
   * @param loops the Vert.x contexts whose event loops serve the connections ({@link #loops})
   * @param http the decoder's limits (header size, chunk size)
   * @param timeouts the {@code server.*} timeouts
   * @param drain whether the node drains: then every answer closes its connection
   * @param metrics where connections are counted
   * @param spec the listener: its handler, its limit and what happens past it ({@code
   *     closeOldestIdle} needs one loop)
   * @param duplicateContexts whether each request runs on a context of its own (a duplicate of its
   *     loop's), as tracing needs to keep a request's trace; else on its loop's
   */
  public HttpListener(
      Vertx vertx,
      List<ContextInternal> loops,
      HttpServerOptions http,
      ServerOptions timeouts,
      Drain drain,
      ConnectionMetrics metrics,
      Listener spec,
      boolean duplicateContexts) {
    if (spec.closeOldestIdle() && loops.size() != 1) {
      throw new IllegalArgumentException(
          "a listener closing its oldest idle connection serves on one loop");
    }
    this.vertx = (VertxInternal) vertx;
    Map<EventLoop, ContextInternal> byLoop = new HashMap<>();
    loops.forEach(context -> byLoop.put(context.nettyEventLoop(), context));
    this.contexts = Map.copyOf(byLoop);
    this.http = http;
    this.headerTimeoutNanos = timeouts.headerTimeout().toNanos();
    this.idleTimeoutMillis = timeouts.idleTimeout().toMillis();
    this.drain = drain;
    this.metrics = metrics;
    this.limit = spec.limit();
    this.handler = spec.handler();
    this.closeOldestIdle = spec.closeOldestIdle();
    this.duplicateContexts = duplicateContexts;
  }

  /**
   * @return an event-loop context on each of {@code instances} distinct event loops of Vert.x
   *     (fewer if Vert.x has fewer)
   */
  public static List<ContextInternal> loops(Vertx vertx, int instances) {
    VertxInternal internal = (VertxInternal) vertx;
    List<ContextInternal> contexts = new ArrayList<>();
    Iterator<EventExecutor> it = internal.nettyEventLoopGroup().iterator();
    while (it.hasNext() && contexts.size() < instances) {
      contexts.add(internal.contextBuilder().withEventLoop((EventLoop) it.next()).build());
    }
    return contexts;
  }

  /**
   * @return the port it listens on, once it does
   */
  int port() {
    return ((java.net.InetSocketAddress) server.localAddress()).getPort();
  }

  /** Starts listening. */
  public Future<Void> listen(String host, int port) {
    Promise<Void> bound = Promise.promise();
    drain.onBegin(
        contexts.values().iterator().next(),
        () -> open.forEach(c -> c.channel().eventLoop().execute(c::drainNode)));
    new ServerBootstrap()
        .group(vertx.acceptorEventLoopGroup(), new LoopGroup(List.copyOf(contexts.keySet())))
        .channelFactory(vertx.transport().serverChannelFactory(false))
        .option(ChannelOption.SO_BACKLOG, 1024)
        .option(ChannelOption.SO_REUSEADDR, true)
        .childOption(ChannelOption.TCP_NODELAY, true)
        .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, WATER_MARK)
        .childHandler(
            new ChannelInitializer<Channel>() {
              @Override
              protected void initChannel(Channel ch) {
                accepted(ch);
              }
            })
        .bind(host, port)
        .addListener(
            f -> {
              if (f.isSuccess()) {
                server = ((io.netty.channel.ChannelFuture) f).channel();
                bound.complete();
              } else {
                bound.fail(f.cause());
              }
            });
    return bound.future();
  }

  private void accepted(Channel ch) {
    if (!limit.tryOpen(() -> closeOldestIdle && closedOldestIdle())) {
      ch.close();
      return;
    }
    metrics.opened();
    ClientConnection connection = new ClientConnection(this);
    open.add(connection);
    if (closeOldestIdle) {
      oldestFirst.add(connection);
    }
    ch.pipeline()
        .addLast("decoder", new StrictRequestDecoder(http, connection::brokenBody))
        // a client that writes its request in pieces without TCP_NODELAY waits for no delayed ACK
        .addLast(QuickAck.NAME, QuickAck.create())
        .addLast("encoder", new ResponseEncoder());
    if (idleTimeoutMillis > 0) {
      ch.pipeline().addLast("idle", new IdleClose(idleTimeoutMillis));
    }
    ch.pipeline().addLast("client", connection);
    if (shutDown != null) {
      connection.shutdown();
    }
  }

  /**
   * Stops accepting; an idle connection closes now, one with an answer in progress once it is sent,
   * at the latest after {@code timeoutMillis} (0: all at once).
   *
   * @return completes once every connection is closed
   */
  public Future<Void> shutdown(long timeoutMillis) {
    Promise<Void> done = Promise.promise();
    shutDown = done;
    if (server != null) {
      server.close();
    }
    for (ClientConnection connection : open) {
      connection
          .channel()
          .eventLoop()
          .execute(
              () -> {
                if (timeoutMillis == 0) {
                  connection.close();
                } else {
                  connection.shutdown();
                }
              });
    }
    if (timeoutMillis > 0) {
      vertx.setTimer(
          timeoutMillis, id -> open.forEach(c -> c.channel().eventLoop().execute(c::close)));
    }
    if (open.isEmpty()) {
      done.tryComplete();
    }
    return done.future();
  }

  /** Closes the oldest idle connection, its slot given back at once; false if none is idle. */
  private boolean closedOldestIdle() {
    for (ClientConnection connection : oldestFirst) {
      if (connection.idle()) {
        oldestFirst.remove(connection);
        connection.closeIdle();
        if (connection.releaseSlot()) {
          limit.closed();
        }
        return true;
      }
    }
    return false;
  }

  void closed(ClientConnection connection) {
    open.remove(connection);
    oldestFirst.remove(connection);
    if (connection.releaseSlot()) {
      limit.closed();
    }
    metrics.closed();
    Promise<Void> done = shutDown;
    if (done != null && open.isEmpty()) {
      done.tryComplete();
    }
  }

  ContextInternal contextOf(EventLoop loop) {
    return contexts.get(loop);
  }

  Handler<HttpServerRequest> handler() {
    return handler;
  }

  Drain drain() {
    return drain;
  }

  long headerTimeoutNanos() {
    return headerTimeoutNanos;
  }

  boolean duplicateContexts() {
    return duplicateContexts;
  }
}
