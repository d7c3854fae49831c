package io.okapigw.perf.hop;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.FastThreadLocal;
import io.okapigw.config.Settings;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * A floor for the comparison, not a gateway: about the least a JVM reverse proxy on Netty does for
 * one HTTP/1.1 exchange: the request decoded and encoded again (hop-by-hop headers dropped), sent
 * on a kept-alive module connection of the same event loop, the response relayed piece by piece as
 * it is read, one flush per read burst, back-pressure by pausing the module's reads. No routing, no
 * timeouts, no error handling beyond closing: what is left when everything a gateway does is taken
 * away, to tell the JVM-and-Netty cost from Vert.x's and ours.
 *
 * <p>{@code java -cp perf-fat.jar io.okapigw.perf.hop.NettyRelay --port P --module-port M}
 */
public final class NettyRelay {

  /** Not forwarded, as nginx does not forward them. */
  static final List<CharSequence> HOP_BY_HOP =
      List.of(
          HttpHeaderNames.CONNECTION,
          HttpHeaderNames.KEEP_ALIVE,
          HttpHeaderNames.UPGRADE,
          "HTTP2-Settings",
          HttpHeaderNames.TE,
          HttpHeaderNames.TRAILER,
          HttpHeaderNames.PROXY_CONNECTION);

  private NettyRelay() {}

  public static void main(String[] args) throws InterruptedException {
    Settings settings = ProcessArgs.read(args);
    int port = settings.get(ProcessArgs.PORT);
    int modulePort = settings.get(ProcessArgs.MODULE_PORT);
    int threads = settings.get(ProcessArgs.INSTANCES);
    EventLoopGroup group = new MultiThreadIoEventLoopGroup(threads, NioIoHandler.newFactory());
    FastThreadLocal<Pool> pools =
        new FastThreadLocal<>() {
          @Override
          protected Pool initialValue() {
            return new Pool(modulePort);
          }
        };
    new ServerBootstrap()
        .group(group)
        .channel(NioServerSocketChannel.class)
        .childOption(ChannelOption.TCP_NODELAY, true)
        .childHandler(
            new ChannelInitializer<SocketChannel>() {
              @Override
              protected void initChannel(SocketChannel ch) {
                ch.pipeline().addLast(new HttpServerCodec(), new ClientSide(pools));
              }
            })
        .bind("127.0.0.1", port)
        .sync();
  }

  /** Idle module connections of one event loop: a request uses one of its own loop. */
  private static final class Pool {
    private final ArrayDeque<Channel> idle = new ArrayDeque<>();
    private final int port;
    private Bootstrap bootstrap;

    Pool(int port) {
      this.port = port;
    }

    ChannelFuture acquire(Channel client) {
      Channel c;
      while ((c = idle.pollFirst()) != null) {
        if (c.isActive()) {
          return c.newSucceededFuture();
        }
      }
      if (bootstrap == null) {
        bootstrap =
            new Bootstrap()
                .group(client.eventLoop())
                .channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .remoteAddress("127.0.0.1", port)
                .handler(
                    new ChannelInitializer<SocketChannel>() {
                      @Override
                      protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new HttpClientCodec(), new ModuleSide());
                      }
                    });
      }
      return bootstrap.connect();
    }

    void release(Channel module) {
      if (module.isActive()) {
        idle.addFirst(module);
      }
    }
  }

  /** A client connection: each request goes to a module connection taken from the pool. */
  private static final class ClientSide extends ChannelInboundHandlerAdapter {
    private final FastThreadLocal<Pool> pools;
    private Channel module;
    private List<Object> pending;

    ClientSide(FastThreadLocal<Pool> pools) {
      this.pools = pools;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      if (msg instanceof HttpRequest request) {
        HOP_BY_HOP.forEach(request.headers()::remove);
        pending = new ArrayList<>(2);
        pending.add(msg);
        ChannelFuture connected = pools.get().acquire(ctx.channel());
        if (connected.isDone()) {
          connected(ctx, connected);
        } else {
          connected.addListener(f -> connected(ctx, connected));
        }
      } else if (module != null) {
        module.write(msg);
      } else if (pending != null) {
        pending.add(msg);
      } else {
        ReferenceCountUtil.release(msg);
      }
    }

    private void connected(ChannelHandlerContext ctx, ChannelFuture connected) {
      if (!connected.isSuccess()) {
        pending.forEach(ReferenceCountUtil::release);
        pending = null;
        ctx.writeAndFlush(
            new DefaultFullHttpResponse(
                io.netty.handler.codec.http.HttpVersion.HTTP_1_1, HttpResponseStatus.BAD_GATEWAY));
        return;
      }
      module = connected.channel();
      module.pipeline().get(ModuleSide.class).exchange(this, ctx.channel());
      pending.forEach(module::write);
      pending = null;
      module.flush();
    }

    void done(Channel moduleChannel) {
      module = null;
      pools.get().release(moduleChannel);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
      if (module != null) {
        module.flush();
      }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
      if (ctx.channel().isWritable() && module != null) {
        module.config().setAutoRead(true);
      }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      if (module != null) {
        module.close(); // mid-exchange: never back to the pool
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ctx.close();
    }
  }

  /** A module connection: the response goes to the client of the exchange under way. */
  private static final class ModuleSide extends ChannelInboundHandlerAdapter {
    private ClientSide owner;
    private Channel client;

    void exchange(ClientSide owner, Channel client) {
      this.owner = owner;
      this.client = client;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      if (client == null) {
        ReferenceCountUtil.release(msg);
        return;
      }
      if (msg instanceof LastHttpContent) {
        client.writeAndFlush(msg);
        ClientSide done = owner;
        owner = null;
        client = null;
        done.done(ctx.channel());
        return;
      }
      client.write(msg);
      if (!client.isWritable()) {
        client.flush();
        // the flush may have drained it, and told the client side so already
        if (!client.isWritable()) {
          ctx.channel().config().setAutoRead(false);
        }
      }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
      if (client != null) {
        client.flush();
      }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      if (client != null) {
        client.close();
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ctx.close();
    }
  }
}
