package io.okapigw.core.server;

import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;
import io.okapigw.core.http.Failures;
import io.okapigw.core.http.HttpError;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.internal.ContextInternal;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client connection of a {@link HttpListener}: the HTTP/1.x messages its decoder reads ({@link
 * StrictRequestDecoder}) become requests ({@link ServerRequest}) served one at a time, in order, by
 * the listener's handler; pipelined requests wait, unread further, until the answer before them is
 * sent. It keeps the connection's rules:
 *
 * <ul>
 *   <li>a refused head is answered with its status and reason, and the connection closed;
 *   <li>complete request headers must arrive within {@code server.header-timeout} of the connection
 *       opening or of the previous answer ending (as Netty's {@code IdleStateHandler} keeps its
 *       time: one timer that looks, when it fires, whether the deadline moved);
 *   <li>no byte read or written for {@code server.idle-timeout} closes it (the listener's {@link
 *       IdleClose}), except while an admin call that may take long runs ({@link #suspendIdle});
 *   <li>keep-alive as HTTP/1.x has it ({@code Connection: close}, HTTP/1.0 without keep-alive);
 *       once the node drains, every answer not started says {@code Connection: close} and its
 *       connection closes after it;
 *   <li>a chunked body that breaks is answered 400 if its answer has not begun, and the connection
 *       closed; a socket that fails is taken as a close.
 * </ul>
 *
 * Writes made while the connection reads are flushed once when the read is complete. Confined to
 * the connection's event loop.
 */
final class ClientConnection extends ChannelDuplexHandler implements Runnable {

  private static final Logger log = LoggerFactory.getLogger(ClientConnection.class);

  /** A paused request's body read ahead at most (about one read of the socket). */
  private static final int MAX_QUEUED_BYTES = 64 * 1024;

  private final HttpListener listener;
  private final ConnectionView view = new ConnectionView(this);
  private final ArrayDeque<Object> queue = new ArrayDeque<>();
  private ChannelHandlerContext ctx;
  private ContextInternal loopContext;
  private ServerRequest current;
  private ServerRequest receiving;
  private boolean responseOver;
  private boolean closing;
  private boolean inRead;
  private boolean flushAfterRead;
  private boolean draining;
  private boolean drainAgain;
  private boolean awaitingHead = true;
  private long awaitingSince = System.nanoTime();
  private boolean timerSet;
  private int idleSuspended;
  private boolean slotReleased;

  ClientConnection(HttpListener listener) {
    this.listener = listener;
  }

  ConnectionView view() {
    return view;
  }

  Channel channel() {
    return ctx.channel();
  }

  // --- Netty events

  @Override
  public void handlerAdded(ChannelHandlerContext context) {
    this.ctx = context;
    this.loopContext = listener.contextOf(context.channel().eventLoop());
    setTimer(listener.headerTimeoutNanos());
  }

  @Override
  public void channelRead(ChannelHandlerContext context, Object msg) {
    if (closing && current == null) {
      ReferenceCountUtil.release(msg);
      return;
    }
    inRead = true;
    queue.add(msg);
    drain();
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext context) {
    inRead = false;
    if (receiving != null) {
      receiving.readComplete();
    }
    if (flushAfterRead) {
      flushAfterRead = false;
      context.flush();
    }
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext context) {
    if (context.channel().isWritable() && current != null) {
      current.response().drained();
    }
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext context, Object event) {
    if (event instanceof IdleStateEvent && idleSuspended == 0) {
      context.close();
    }
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
    // a reset or broken pipe is the client gone: a close, as any other end of the connection
    if (!(cause instanceof IOException)) {
      log.debug("client connection failed", cause);
    }
    context.close();
  }

  @Override
  public void channelInactive(ChannelHandlerContext context) {
    closing = true;
    ServerRequest request = current;
    current = null;
    receiving = null;
    for (Object msg; (msg = queue.poll()) != null; ) {
      ReferenceCountUtil.release(msg);
    }
    if (request != null) {
      request.failed(new HttpClosedException("Connection was closed"));
      request.response().connectionClosed();
    }
    listener.closed(this);
  }

  // --- the requests, one at a time

  /** Serves what was read, in order, as far as the request being answered and its reader allow. */
  private void drain() {
    if (draining) {
      drainAgain = true;
      return;
    }
    draining = true;
    try {
      do {
        drainAgain = false;
        drainOnce();
      } while (drainAgain);
    } finally {
      draining = false;
    }
    // reading stops only for what could pile up: a pipelined request waiting, or a body its reader
    // does not take; the last piece of a request whose handler paused it (every proxied request)
    // stays queued without turning reading off and on (a system call each way)
    ctx.channel().config().setAutoRead(!waitingRequest() && queuedBytes() < MAX_QUEUED_BYTES);
  }

  private boolean waitingRequest() {
    for (Object msg : queue) {
      if (msg instanceof HttpRequest) {
        return true;
      }
    }
    return false;
  }

  private int queuedBytes() {
    int bytes = 0;
    for (Object msg : queue) {
      if (msg instanceof HttpContent content) {
        bytes += content.content().readableBytes();
      }
    }
    return bytes;
  }

  private void drainOnce() {
    for (Object msg; (msg = queue.peek()) != null; ) {
      if (msg instanceof HttpRequest head) {
        if (closing) {
          queue.poll();
          ReferenceCountUtil.release(msg);
          continue;
        }
        if (current != null) {
          return;
        }
        queue.poll();
        begin(head);
      } else if (receiving == null) {
        // the rest of a request whose reader is gone
        queue.poll();
        ReferenceCountUtil.release(msg);
      } else if (receiving.paused()) {
        return;
      } else {
        queue.poll();
        ServerRequest request = receiving;
        boolean last = msg instanceof LastHttpContent;
        if (last) {
          receiving = null;
        }
        request.content((HttpContent) msg);
        if (last) {
          bodyRead(request);
        }
      }
    }
  }

  private void begin(HttpRequest head) {
    awaitingHead = false;
    boolean draining = listener.drain().draining();
    ContextInternal context = listener.duplicateContexts() ? loopContext.duplicate() : loopContext;
    ServerRequest request =
        new ServerRequest(this, head, context, HttpUtil.isKeepAlive(head) && !draining);
    current = request;
    responseOver = false;
    if (head.decoderResult().isFailure()) {
      closing = true;
      ReferenceCountUtil.release(head);
      invalid(request);
      return;
    }
    receiving = request;
    if (draining) {
      request.response().closeAfter();
    }
    if (HttpUtil.is100ContinueExpected(head)) {
      writeContinue(null);
    }
    context.dispatch(request, listener.handler());
  }

  /** The request's body was read to its end. */
  private void bodyRead(ServerRequest request) {
    if (request == current && responseOver) {
      over();
    }
  }

  /**
   * The answer to the request being served ends with {@code last}, written and flushed; if the
   * connection is not kept alive, it closes once that is sent.
   */
  void endResponse(ServerResponse response, Object last, Promise<Void> written) {
    ChannelFuture future = ctx.writeAndFlush(last);
    future.addListener(
        f -> {
          if (f.isSuccess()) {
            written.tryComplete();
          } else {
            written.tryFail(f.cause());
          }
        });
    ServerRequest request = current;
    if (request != null && request.response() == response) {
      responseOver = true;
      if (!response.keepAlive()) {
        closing = true;
        future.addListener(ChannelFutureListener.CLOSE);
      }
    }
  }

  /**
   * The answer's end was handled: the next request is served once the body is read too; the rest of
   * a body the answer came before (a 413, say) is read and dropped, so that the next request is
   * read where it starts.
   */
  void responseEnded(ServerResponse response) {
    ServerRequest request = current;
    if (request == null || request.response() != response || closing) {
      return;
    }
    if (request.bodyEnded()) {
      over();
    } else {
      request.dropBody();
    }
  }

  /** The request and its answer are over: the next one may be served. */
  private void over() {
    current = null;
    startAwaiting(System.nanoTime());
    if (!queue.isEmpty()) {
      drain();
    }
  }

  /**
   * A paused request resumed: what was read for it, and more, is served; what that wrote is flushed
   * as at the end of a read.
   */
  void readOn() {
    ServerRequest reader = receiving;
    drain();
    if (!inRead && reader != null) {
      reader.readComplete();
    }
  }

  /**
   * A head refused by the decoder: answered with the refusal's status and reason, or, for a head
   * Netty cannot read, with 414 for a line too long, 431 for headers too large, else 400 and
   * Netty's reason; the connection is closed either way, and says so.
   */
  private void invalid(ServerRequest request) {
    Throwable cause = request.decoderResult().cause();
    HttpError refusal = cause instanceof HttpError e ? e : refusal(cause);
    request.response().closeAfter();
    Failures.respond(request.response(), refusal);
  }

  /**
   * @return the refusal of a head Netty cannot read: 414 for a line too long, 431 for headers too
   *     large, else 400, with Netty's reason, cut and without bytes a terminal would act on
   */
  static HttpError refusal(Throwable cause) {
    int status =
        cause instanceof TooLongHttpLineException
            ? 414
            : cause instanceof TooLongHttpHeaderException ? 431 : 400;
    String message = cause == null || cause.getMessage() == null ? "" : cause.getMessage();
    String cut = message.length() > 200 ? message.substring(0, 200) + "..." : message;
    return new HttpError(
        status, "malformed request head: " + cut.replaceAll("[^\\x20-\\x7e]", "?"));
  }

  /**
   * The body of the request being read cannot be read on (a bad chunk): it is answered 400 if its
   * answer has not begun, and the connection closed.
   */
  void brokenBody(Throwable cause) {
    closing = true;
    ServerRequest request = receiving;
    receiving = null;
    if (request == null) {
      ctx.close();
      return;
    }
    ServerResponse response = request.response();
    if (response.headWritten() || response.ended()) {
      request.failed(cause);
      ctx.close();
      return;
    }
    // answered first: whatever the body's reader does on its failure finds the answer given
    response.closeAfter();
    Failures.respond(response, new HttpError(400, "invalid chunked body: " + cause.getMessage()));
    request.failed(cause);
  }

  // --- writes

  /** Writes, not flushed. */
  void write(Object msg) {
    ctx.write(msg, ctx.voidPromise());
  }

  /** Writes and flushes (once the read in progress is complete, if one is). */
  void writeAndFlush(Object msg, Promise<Void> written) {
    ChannelFuture future;
    if (inRead) {
      future = ctx.write(msg);
      flushAfterRead = true;
    } else {
      future = ctx.writeAndFlush(msg);
    }
    future.addListener(
        f -> {
          if (f.isSuccess()) {
            written.tryComplete();
          } else {
            written.tryFail(f.cause());
          }
        });
  }

  /** Flushes what was written (once the read in progress is complete, if one is). */
  void flush() {
    if (inRead) {
      flushAfterRead = true;
    } else {
      ctx.flush();
    }
  }

  boolean writable() {
    return ctx.channel().isWritable();
  }

  /** Writes {@code 100 Continue}: the client may send the body it announced. */
  void writeContinue(Promise<Void> written) {
    ChannelFuture future =
        ctx.writeAndFlush(
            new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE));
    if (written != null) {
      future.addListener(f -> written.tryComplete());
    }
  }

  /**
   * @return whether the connection is idle: open, waiting for a request's head (nothing sent yet,
   *     or a head not complete), no request in progress
   */
  boolean idle() {
    return awaitingHead && current == null && !closing;
  }

  /** Closes the connection, idle, to make room for another. */
  void closeIdle() {
    closing = true;
    ctx.close();
  }

  /**
   * @return true the first time only: whether the caller gives the connection's slot of its
   *     listener's limit back
   */
  boolean releaseSlot() {
    boolean first = !slotReleased;
    slotReleased = true;
    return first;
  }

  /** Closes the connection. */
  void close() {
    ctx.close();
  }

  /** {@code host:port} the connection was accepted on. */
  String localAuthority() {
    InetSocketAddress local = (InetSocketAddress) ctx.channel().localAddress();
    return local.getHostString() + ":" + local.getPort();
  }

  // --- drain, shutdown, idle

  /**
   * The node began to drain: the answer in progress, unless its head is sent, says {@code
   * Connection: close}, and the connection closes after it; an idle one is closed at the listener's
   * shutdown, or after its next answer.
   */
  void drainNode() {
    ServerRequest request = current;
    if (request != null && !responseOver && !request.response().headWritten()) {
      request.response().closeAfter();
    }
  }

  /**
   * @return whether the node drains: then every answer closes its connection after it
   */
  boolean nodeDraining() {
    return listener.drain().draining();
  }

  /**
   * The listener shuts down: an idle connection closes now, a busy one after its answer.
   *
   * @return whether it closed now
   */
  boolean shutdown() {
    closing = true;
    ServerRequest request = current;
    if (request == null || responseOver) {
      ctx.close();
      return true;
    }
    request.response().closeAfter();
    return false;
  }

  /**
   * Keeps {@code server.idle-timeout} from closing the connection while {@code work} runs (an
   * install waiting for modules' {@code _tenant} calls).
   */
  <T> Future<T> suspendIdle(Future<T> work) {
    idleSuspended++;
    return work.andThen(
        done -> {
          if (ctx.executor().inEventLoop()) {
            idleSuspended--;
          } else {
            ctx.executor().execute(() -> idleSuspended--);
          }
        });
  }

  // --- the header timer

  /** The header timer. */
  @Override
  public void run() {
    timerSet = false;
    if (closing || !ctx.channel().isActive()) {
      return;
    }
    if (!awaitingHead) {
      setTimer(listener.headerTimeoutNanos());
      return;
    }
    long left = awaitingSince + listener.headerTimeoutNanos() - System.nanoTime();
    if (left > 0) {
      setTimer(left);
    } else {
      closing = true;
      ctx.close();
    }
  }

  private void startAwaiting(long now) {
    awaitingHead = true;
    awaitingSince = now;
    setTimer(listener.headerTimeoutNanos());
  }

  private void setTimer(long nanos) {
    if (listener.headerTimeoutNanos() > 0 && !timerSet) {
      timerSet = true;
      ctx.executor().schedule(this, Math.max(1, nanos), TimeUnit.NANOSECONDS);
    }
  }
}
