package io.okapigw.core.http;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.nio.NioChannelOption;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.LastHttpContent;
import java.net.SocketOption;
import java.util.function.Consumer;
import jdk.net.ExtendedSocketOptions;

/**
 * Acknowledges at once what a read of the connection brought when it left a message incomplete: its
 * head not all there (no message decoded), or its body not ended. It sits after the HTTP decoder of
 * a connection (a module's, a client's) and, at the end of such a read, asks the kernel for an
 * immediate ACK ({@code TCP_QUICKACK}).
 *
 * <p>Why: a peer that writes a message in pieces without {@code TCP_NODELAY} (Python's {@code
 * http.server} writes its head, then its body; many small servers and clients do) holds each piece
 * after the first until the one before it is acknowledged (Nagle). On a kept-alive connection that
 * answers as soon as it reads, Linux delays that ACK ({@code pingpong} mode: it waits up to 40 ms
 * for data to carry it), so every such message waited one delayed-ACK round. Asked for a quick ACK,
 * the kernel sends the ACK now and leaves that mode until the gateway next writes: the held piece
 * comes at once. A message read whole in one read costs nothing (no system call).
 *
 * <p>Where the transport cannot (not Linux, another channel type), it does nothing. Confined to the
 * connection's event loop.
 */
public final class QuickAck extends ChannelInboundHandlerAdapter {

  /** The name it has in a pipeline. */
  public static final String NAME = "okapigwQuickAck";

  private static final ChannelOption<Boolean> OPTION = option();

  private final Consumer<Channel> ack;
  private boolean inMessage;
  private boolean decoded;

  /**
   * @return a handler for one connection, to go right after its HTTP decoder
   */
  public static ChannelHandler create() {
    return new QuickAck(QuickAck::request);
  }

  /**
   * @param ack asks for the immediate ACK on a channel
   */
  QuickAck(Consumer<Channel> ack) {
    this.ack = ack;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    decoded = true;
    if (msg instanceof LastHttpContent) {
      inMessage = false;
    } else if (msg instanceof HttpMessage || msg instanceof HttpContent) {
      inMessage = true;
    }
    ctx.fireChannelRead(msg);
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    boolean partial = inMessage || !decoded;
    decoded = false;
    if (partial) {
      ack.accept(ctx.channel());
    }
    ctx.fireChannelReadComplete();
  }

  /**
   * Asks for an immediate ACK of what {@code channel} received and not yet acknowledged.
   *
   * @return whether the transport took the request
   */
  public static boolean request(Channel channel) {
    if (OPTION == null || !channel.isActive()) {
      return false;
    }
    try {
      return channel.config().setOption(OPTION, true);
    } catch (RuntimeException e) {
      // a refused request for an ACK never breaks the connection
      return false;
    }
  }

  /**
   * @return the option on the NIO transport (the one the gateway runs on), null where the JDK has
   *     none
   */
  private static ChannelOption<Boolean> option() {
    try {
      SocketOption<Boolean> quickAck = ExtendedSocketOptions.TCP_QUICKACK;
      return NioChannelOption.of(quickAck);
    } catch (LinkageError e) {
      return null;
    }
  }
}
