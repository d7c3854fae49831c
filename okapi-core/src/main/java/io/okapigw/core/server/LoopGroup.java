package io.okapigw.core.server;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelPromise;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.AbstractEventExecutorGroup;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.ImmediateEventExecutor;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Some of Vert.x's event loops, as the group a listener's connections are registered on, round
 * robin: the listener serves on the loops of the node's HTTP instances ({@code instances}), no
 * others. The loops are Vert.x's: this group never shuts them down.
 */
final class LoopGroup extends AbstractEventExecutorGroup implements EventLoopGroup {

  private final List<EventLoop> loops;
  private final AtomicInteger next = new AtomicInteger();

  LoopGroup(List<EventLoop> loops) {
    this.loops = List.copyOf(loops);
  }

  @Override
  public EventLoop next() {
    return loops.get(Math.floorMod(next.getAndIncrement(), loops.size()));
  }

  @Override
  public ChannelFuture register(Channel channel) {
    return next().register(channel);
  }

  @Override
  public ChannelFuture register(ChannelPromise promise) {
    return next().register(promise);
  }

  @Deprecated
  @Override
  public ChannelFuture register(Channel channel, ChannelPromise promise) {
    return next().register(channel, promise);
  }

  @Override
  @SuppressWarnings("unchecked")
  public Iterator<EventExecutor> iterator() {
    return (Iterator<EventExecutor>) (Iterator<?>) loops.iterator();
  }

  @Override
  public boolean isShuttingDown() {
    return false;
  }

  @Override
  public Future<?> shutdownGracefully(long quietPeriod, long timeout, TimeUnit unit) {
    return terminationFuture();
  }

  @Override
  public Future<?> terminationFuture() {
    return ImmediateEventExecutor.INSTANCE.newSucceededFuture(null);
  }

  @Deprecated
  @Override
  public void shutdown() {}

  @Override
  public boolean isShutdown() {
    return false;
  }

  @Override
  public boolean isTerminated() {
    return false;
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) {
    return false;
  }
}
