package io.okapigw.core.server;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.timeout.IdleStateEvent;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * {@code server.idle-timeout} of a client connection: fires {@link
 * IdleStateEvent#ALL_IDLE_STATE_EVENT} once nothing was read and nothing flushed for the timeout,
 * as Netty's {@code IdleStateHandler(0, 0, timeout)} does, but without a promise and a listener per
 * write. Netty's handler counts a write when it completes, so it turns every write's void promise
 * into a real one with a listener: three per answer (head, body, end), on every request. Here the
 * activities are a read burst's end, a flush, and the connection becoming writable again (a client
 * that takes bytes of an answer held back by back-pressure): a client that stops reading stops the
 * relay's flushes, so the timeout runs from the last one, as Netty's runs from the last write that
 * completed. Confined to the connection's event loop.
 */
final class IdleClose extends ChannelDuplexHandler {

  private final long timeoutNanos;
  private long last;
  private boolean reading;
  private ScheduledFuture<?> check;

  /**
   * @param timeoutMillis how long the connection may be silent both ways, more than 0
   */
  IdleClose(long timeoutMillis) {
    this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    if (ctx.channel().isActive() && ctx.channel().isRegistered()) {
      start(ctx);
    }
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    start(ctx);
    ctx.fireChannelActive();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    stop();
    ctx.fireChannelInactive();
  }

  @Override
  public void handlerRemoved(ChannelHandlerContext ctx) {
    stop();
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    reading = true;
    ctx.fireChannelRead(msg);
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    reading = false;
    last = now(ctx);
    ctx.fireChannelReadComplete();
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    last = now(ctx);
    ctx.fireChannelWritabilityChanged();
  }

  @Override
  public void flush(ChannelHandlerContext ctx) {
    last = now(ctx);
    ctx.flush();
  }

  private void start(ChannelHandlerContext ctx) {
    if (check != null) {
      return;
    }
    last = now(ctx);
    schedule(ctx, timeoutNanos);
  }

  private void schedule(ChannelHandlerContext ctx, long delayNanos) {
    check = ctx.executor().schedule(() -> check(ctx), delayNanos, TimeUnit.NANOSECONDS);
  }

  private void check(ChannelHandlerContext ctx) {
    if (!ctx.channel().isOpen()) {
      return;
    }
    long left = reading ? timeoutNanos : timeoutNanos - (now(ctx) - last);
    if (left > 0) {
      schedule(ctx, left);
      return;
    }
    schedule(ctx, timeoutNanos);
    ctx.fireUserEventTriggered(IdleStateEvent.ALL_IDLE_STATE_EVENT);
  }

  /** The loop's clock (a test's {@code EmbeddedChannel} moves it by hand). */
  private static long now(ChannelHandlerContext ctx) {
    return ctx.executor().ticker().nanoTime();
  }

  private void stop() {
    if (check != null) {
      check.cancel(false);
      check = null;
    }
  }
}
