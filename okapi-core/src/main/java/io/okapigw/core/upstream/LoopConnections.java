package io.okapigw.core.upstream;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoop;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.okapigw.core.http.FailureLog;
import io.okapigw.core.http.QuickAck;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.internal.VertxInternal;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;

/**
 * The module connections of one event loop: a {@link ConnectionPool} per instance origin, and the
 * Netty bootstrap that opens them on this loop, so that a call and its connection, and the client
 * connection it serves, never cross threads. Confined to the loop.
 */
final class LoopConnections {

  /**
   * A connection's write buffer: writable again below 64 KiB, not writable above 256 KiB (four of
   * the pieces a body is relayed in), where the side that feeds it stops reading.
   */
  static final WriteBufferWaterMark WATER_MARK = new WriteBufferWaterMark(64 * 1024, 256 * 1024);

  private final EventLoop loop;
  private final UpstreamOptions options;
  private final FailureLog framing;
  private final Supplier<SslContext> ssl;
  private final Bootstrap bootstrap;
  private final Map<Origin, ConnectionPool> pools = new HashMap<>();

  LoopConnections(
      VertxInternal vertx,
      EventLoop loop,
      UpstreamOptions options,
      FailureLog framing,
      Supplier<SslContext> ssl) {
    this.loop = loop;
    this.options = options;
    this.framing = framing;
    this.ssl = ssl;
    this.bootstrap =
        new Bootstrap()
            .group(loop)
            .channelFactory(vertx.transport().channelFactory(false))
            .resolver(vertx.nameResolver().nettyAddressResolverGroup())
            .option(ChannelOption.TCP_NODELAY, true)
            .option(ChannelOption.SO_KEEPALIVE, true)
            .option(ChannelOption.WRITE_BUFFER_WATER_MARK, WATER_MARK)
            .option(
                ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) options.connectTimeout().toMillis());
  }

  EventLoop loop() {
    return loop;
  }

  /** Hands {@code acquired} a pooled connection to {@code origin}. */
  void acquire(Origin origin, Promise<ModuleConnection> acquired) {
    pools
        .computeIfAbsent(
            origin,
            o ->
                new ConnectionPool(
                    this, o, options.maxConnectionsPerHost(), options.reuseQuiet().toNanos()))
        .acquire(acquired);
  }

  /** Opens a connection of {@code pool}'s. */
  Future<ModuleConnection> connect(Origin origin, ConnectionPool pool) {
    return connect(bootstrap, origin, pool);
  }

  /**
   * Opens a connection of its own, never pooled (a health check's), closed after its one call.
   *
   * @param connectTimeoutMillis how long connecting may take
   */
  Future<ModuleConnection> connectOwn(Origin origin, long connectTimeoutMillis) {
    Bootstrap own =
        bootstrap
            .clone()
            .option(
                ChannelOption.CONNECT_TIMEOUT_MILLIS,
                (int) Math.min(Integer.MAX_VALUE, Math.max(1, connectTimeoutMillis)));
    return connect(own, origin, null);
  }

  private Future<ModuleConnection> connect(Bootstrap from, Origin origin, ConnectionPool pool) {
    Promise<ModuleConnection> connected = Promise.promise();
    ModuleConnection[] made = {null};
    ChannelFuture future =
        from.clone()
            .handler(
                new ChannelInitializer<Channel>() {
                  @Override
                  protected void initChannel(Channel ch) {
                    made[0] = initialize(ch, origin, pool);
                  }
                })
            .connect(origin.address(), origin.port());
    future.addListener(
        f -> {
          if (f.isSuccess() && made[0] != null) {
            connected.complete(made[0]);
          } else {
            connected.fail(f.cause() != null ? f.cause() : new ConnectionClosed());
          }
        });
    return connected.future();
  }

  private ModuleConnection initialize(Channel ch, Origin origin, ConnectionPool pool) {
    ChannelPipeline pipeline = ch.pipeline();
    if (origin.ssl()) {
      SSLEngine engine = ssl.get().newEngine(ch.alloc(), origin.address(), origin.port());
      SSLParameters parameters = engine.getSSLParameters();
      parameters.setEndpointIdentificationAlgorithm("HTTPS");
      engine.setSSLParameters(parameters);
      pipeline.addLast("ssl", new SslHandler(engine));
    }
    StrictClientCodec codec = new StrictClientCodec(options, framing);
    ModuleConnection connection = new ModuleConnection(ch, pool, codec);
    pipeline.addLast("codec", codec);
    // a module that writes its answer in pieces without TCP_NODELAY waits for no delayed ACK
    pipeline.addLast(QuickAck.NAME, QuickAck.create());
    pipeline.addLast("module", connection);
    return connection;
  }

  /** Closes the idle connections of every pool. */
  void closeIdle() {
    pools.values().forEach(ConnectionPool::closeIdle);
  }
}
