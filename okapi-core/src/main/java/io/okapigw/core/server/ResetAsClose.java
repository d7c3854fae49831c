package io.okapigw.core.server;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.io.IOException;

/**
 * A client connection's socket failing (a reset, a broken pipe) is taken as its close: the channel
 * is closed, and Vert.x learns of it as a close, not as an exception. Vert.x 5.0's exception path
 * throws a {@code NullPointerException} for a pipelined request whose response is not made yet
 * ({@code Http1xServerRequest.handleException}: {@code this.response} is null), which Netty logs at
 * WARN with the reset's stack trace, about 20 lines for each client that pipelines and resets; its
 * close path does not. Other exceptions go on as before.
 */
@ChannelHandler.Sharable
final class ResetAsClose extends ChannelInboundHandlerAdapter {

  static final ResetAsClose INSTANCE = new ResetAsClose();

  private ResetAsClose() {}

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (cause instanceof IOException) {
      ctx.close();
    } else {
      ctx.fireExceptionCaught(cause);
    }
  }
}
