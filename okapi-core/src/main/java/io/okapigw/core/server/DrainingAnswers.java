package io.okapigw.core.server;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponse;

/**
 * Every answer whose head is written once the node drains says {@code Connection: close}, and its
 * connection is closed after it — decided when the head goes out, so an answer written before the
 * drain's notice reached the connection's event loop (a busy loop runs its pending reads before its
 * queued tasks) says so too. 1xx heads are not final answers and are left alone.
 */
final class DrainingAnswers extends ChannelOutboundHandlerAdapter {

  /** The name it has in a client connection's pipeline, before Vert.x's handler. */
  static final String NAME = "okapigwDrainingAnswers";

  private final Drain drain;
  private final Runnable closeAfterAnswer;

  /**
   * @param drain whether the node drains
   * @param closeAfterAnswer marks the connection to be closed once the answer is sent
   */
  DrainingAnswers(Drain drain, Runnable closeAfterAnswer) {
    this.drain = drain;
    this.closeAfterAnswer = closeAfterAnswer;
  }

  @Override
  public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
    if (msg instanceof HttpResponse head && head.status().code() >= 200 && drain.draining()) {
      head.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
      closeAfterAnswer.run();
    }
    ctx.write(msg, promise);
  }
}
