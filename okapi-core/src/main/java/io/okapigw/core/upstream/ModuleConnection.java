package io.okapigw.core.upstream;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpObject;
import io.netty.util.ReferenceCountUtil;
import java.util.concurrent.TimeUnit;

/**
 * One connection to a module instance: a Netty channel on one event loop, carrying one call at a
 * time ({@link ModuleCall}), which it tells of everything the channel brings. Once a call is over
 * it goes back to its {@link ConnectionPool}, or is closed when it cannot carry another (its
 * framing broke, either side said {@code Connection: close}, the call was given up midway); a
 * health check's connection has no pool and is closed after its one call.
 *
 * <p>A connection that ever carries bytes that answer no request is closed at once and never
 * reused, and the instance is told to have broken HTTP ({@link ModuleCall#brokeProtocol}: ejected
 * at once): bytes while it carries no call (pooled), an answer before the call's request head was
 * written, bytes after the end of the call's answer ({@link StrictClientCodec} finds them). It
 * reads while pooled, so that such bytes are seen as they come; the pool hands it to no new call
 * before it has been quiet for {@code proxy.reuse-quiet} ({@link ConnectionPool}). What HTTP/1.1
 * cannot tell: a stray answer that comes after the next call's request went out is read as that
 * call's answer; the real answer behind it then comes after an answer's end, or on an idle
 * connection, and is caught so, the instance ejected.
 *
 * <p>It keeps the call's timeout too, as Netty's {@code IdleStateHandler} keeps its: a deadline the
 * call moves forward as bytes come, and one timer that, when it fires, looks whether the deadline
 * moved, so a busy connection sets about one timer per timeout, not one per call. Confined to the
 * channel's event loop.
 */
final class ModuleConnection extends ChannelInboundHandlerAdapter implements Runnable {

  private final Channel channel;
  private final ConnectionPool pool;
  private final StrictClientCodec codec;
  private ModuleCall call;

  /** The call it carries, or carried last: the one whose instance a stray answer is blamed on. */
  private ModuleCall last;

  private long idleSince = System.nanoTime();
  private long deadline;
  private long timerDue;

  /**
   * @param pool where it goes back to after a call; null for a connection of its own
   */
  ModuleConnection(Channel channel, ConnectionPool pool, StrictClientCodec codec) {
    this.channel = channel;
    this.pool = pool;
    this.codec = codec;
    codec.onStray(this::stray);
  }

  Channel channel() {
    return channel;
  }

  /** Carries {@code next} from now on. */
  void carry(ModuleCall next) {
    call = next;
    last = next;
  }

  /**
   * @return whether it has been idle, read and silent, for at least {@code quietNanos}
   */
  boolean quietFor(long now, long quietNanos) {
    return call == null && now - idleSince >= quietNanos;
  }

  /** The module sent bytes that answer no request: the connection is never reused. */
  private void stray(String what) {
    if (last != null) {
      last.brokeProtocol(what);
    }
    if (call == null) {
      channel.close();
    }
  }

  /**
   * @return whether the connection may carry a call: open, and idle for less than {@code maxIdle}
   */
  boolean usable(long now, long maxIdleNanos) {
    return channel.isActive() && !codec.broken() && now - idleSince < maxIdleNanos;
  }

  /**
   * The call is over, its request sent whole and its answer read to the end, or given up.
   *
   * @param reusable whether neither side asked to close and nothing was left half-done
   */
  void finished(ModuleCall done, boolean reusable) {
    if (call != done) {
      return;
    }
    call = null;
    deadline = 0;
    if (reusable && pool != null && channel.isActive() && !codec.broken()) {
      idleSince = System.nanoTime();
      // read while idle: a close or stray bytes are seen at once
      channel.config().setAutoRead(true);
      pool.release(this);
    } else {
      channel.close();
    }
  }

  /** Closes the connection; its call, if any, learns of it as a close. */
  void close() {
    channel.close();
  }

  /**
   * The call's timeout runs from now: it fails unless the deadline is moved on within {@code
   * timeoutNanos}.
   */
  void watch(long timeoutNanos) {
    long now = System.nanoTime();
    deadline = now + timeoutNanos;
    if (timerDue == 0 || timerDue - deadline > 0) {
      timerDue = deadline;
      channel.eventLoop().schedule(this, Math.max(1, timeoutNanos), TimeUnit.NANOSECONDS);
    }
  }

  /** Moves the deadline on by the call's timeout from now (bytes came). */
  void moved(long timeoutNanos) {
    if (deadline != 0) {
      deadline = System.nanoTime() + timeoutNanos;
    }
  }

  /** The call's timeout no longer runs. */
  void unwatch() {
    deadline = 0;
  }

  /** The timer: the call times out if its deadline passed, else the timer is set for it. */
  @Override
  public void run() {
    timerDue = 0;
    if (deadline == 0 || call == null) {
      return;
    }
    long left = deadline - System.nanoTime();
    if (left <= 0) {
      deadline = 0;
      call.timedOut();
    } else {
      timerDue = deadline;
      channel.eventLoop().schedule(this, left, TimeUnit.NANOSECONDS);
    }
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (call != null && msg instanceof HttpObject object) {
      call.read(object);
    } else {
      ReferenceCountUtil.release(msg);
    }
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    if (call != null) {
      call.readComplete();
    }
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    if (call != null && channel.isWritable()) {
      call.writabilityChanged();
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    ModuleCall closed = call;
    call = null;
    deadline = 0;
    if (pool != null) {
      pool.closed(this);
    }
    if (closed != null) {
      closed.connectionClosed(null);
    }
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    ModuleCall failed = call;
    call = null;
    deadline = 0;
    if (failed != null) {
      failed.connectionClosed(cause);
    }
    ModuleCall.debug(cause);
    ctx.close();
  }
}
