package io.okapigw.core.server;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.timeout.IdleStateHandler;
import io.vertx.core.Future;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.impl.HttpServerConnection;
import java.util.NoSuchElementException;
import java.util.concurrent.TimeUnit;

/**
 * Lets one admin request outlast {@code server.idle-timeout}: an install, an enable or an upgrade
 * waits, silent, for modules' {@code _tenant} calls (bounded by {@code tenant.init-timeout}) that
 * take minutes when a module loads reference data. While the work runs, the connection's idle timer
 * (Vert.x's {@code IdleStateHandler}, named {@code idle}) is swapped for a handler that does
 * nothing; once the work is done an idle timer as before is put back. Must be called on the
 * connection's event loop.
 */
public final class IdleTimeouts {

  private static final String IDLE = "idle";

  private IdleTimeouts() {}

  /**
   * @param request the request whose connection may stay silent
   * @param work what the request waits for
   * @return {@code work}
   */
  public static <T> Future<T> suspendWhile(HttpServerRequest request, Future<T> work) {
    if (request.connection() instanceof ConnectionView connection) {
      return connection.suspendIdleWhile(work);
    }
    if (!(request.connection() instanceof HttpServerConnection connection)) {
      return work;
    }
    ChannelPipeline pipeline = connection.channelHandlerContext().pipeline();
    ChannelHandler handler = pipeline.get(IDLE);
    if (!(handler instanceof IdleStateHandler idle)) {
      return work;
    }
    pipeline.replace(IDLE, IDLE, new ChannelDuplexHandler());
    return work.andThen(done -> restore(pipeline, idle));
  }

  private static void restore(ChannelPipeline pipeline, IdleStateHandler idle) {
    try {
      pipeline.replace(
          IDLE,
          IDLE,
          new IdleStateHandler(
              idle.getReaderIdleTimeInMillis(),
              idle.getWriterIdleTimeInMillis(),
              idle.getAllIdleTimeInMillis(),
              TimeUnit.MILLISECONDS));
    } catch (NoSuchElementException e) {
      // the connection closed meanwhile: nothing left to time
    }
  }
}
