package io.okapigw.core.upstream;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.okapigw.core.http.BodySink;
import io.okapigw.core.http.Framing;
import io.okapigw.core.http.HttpError;
import io.okapigw.core.routing.Endpoint;
import io.okapigw.core.upstream.CallFailures.BadAnswer;
import io.okapigw.core.upstream.balance.Pick;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.impl.headers.HeadersMultiMap;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.buffer.BufferInternal;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.IntUnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One call to one module instance, opened by the {@link ModuleClient} on a connection of its own
 * ({@link ModuleConnection}, a Netty channel on the caller's event loop): its kind, the module and
 * the instance chosen, the request's headers (to be written by the caller), and the ways to send it
 * and read the answer, whole ({@link #exchange}) or streamed ({@link #sendHead}, {@link #write},
 * {@link #end}; {@link #answered}, {@link #relay}). Every failure of it is mapped once ({@link
 * #fail}, see {@link CallFailures}). Confined to the event loop it was opened on.
 *
 * <p>The call's timeout ({@link #timeoutMillis}) runs from its opening and from every byte the
 * module sends, and from every piece of a body streamed up to it; once the answer's head has come,
 * an answer read whole must end within the timeout of it.
 */
public final class ModuleCall {

  private static final Logger log = LoggerFactory.getLogger(ModuleCall.class);

  /**
   * A module's answer to a call sent whole: its status and headers, and (the start of) its body.
   */
  public record Answer(int status, MultiMap headers, Buffer body) {}

  /**
   * The head of a module's final answer.
   *
   * @param status the status code (200 or more)
   * @param reason the reason phrase
   * @param headers the answer's headers
   * @param framing how its body is delimited, as the codec read it (not as a copy of the headers
   *     would say)
   */
  public record Head(int status, String reason, MultiMap headers, Framing framing) {}

  /**
   * Where a call goes, whichever instance it gets: kept so that it can go to another.
   *
   * @param underInstancePath whether {@code uri} goes under the instance's path (system calls)
   */
  record Target(
      CallKind kind,
      io.okapigw.core.routing.Instances instances,
      HttpMethod method,
      String uri,
      boolean underInstancePath,
      long timeoutMillis) {}

  private final ModuleClient client;
  private final Target target;
  private final String moduleId;
  private final Endpoint instance;
  private final Pick pick;
  private final List<Endpoint> tried;
  private final boolean resent;
  private final long startNanos = System.nanoTime();
  private final long timeoutNanos;
  private final HeadersMultiMap headers = HeadersMultiMap.httpHeaders();
  private ModuleConnection connection;
  private Channel channel;
  private ContextInternal context;
  private Promise<Head> head;
  private HttpResponse response;
  private Head answer;
  private BodySink body;
  private ArrayDeque<HttpContent> held;
  private Runnable onWritable;
  private Consumer<Throwable> onFailure;
  private Throwable failure;
  private Framing framing = Framing.NONE;
  private long bodySent;
  private boolean headSent;
  private boolean sentWhole;
  private boolean answered;
  private boolean complete;
  private boolean interim;
  private boolean over;
  private boolean abandoned;
  private boolean paused;
  private boolean readWhole;
  private boolean ownConnection;

  /**
   * @param pick the instance chosen; null for none (or a health check's, chosen by its caller)
   * @param before the instances this request failed on before
   * @param resent whether the request was already sent again after a reset
   */
  ModuleCall(
      ModuleClient client,
      Target target,
      String moduleId,
      Pick pick,
      Endpoint instance,
      List<Endpoint> before,
      boolean resent) {
    this.client = client;
    this.target = target;
    this.moduleId = moduleId;
    this.pick = pick;
    this.instance = pick == null ? instance : pick.endpoint();
    this.resent = resent;
    this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(target.timeoutMillis());
    if (this.instance == null) {
      this.tried = before;
    } else if (before.isEmpty()) {
      this.tried = List.of(this.instance);
    } else {
      List<Endpoint> all = new ArrayList<>(before);
      all.add(this.instance);
      this.tried = all;
    }
  }

  /**
   * The call has its connection: its timeout starts, and it may be written.
   *
   * @param caller the context of the caller, whose futures complete there; null for none
   */
  ModuleCall opened(ModuleConnection carrier, ContextInternal caller) {
    connection = carrier;
    channel = carrier.channel();
    context = caller;
    head = promise();
    carrier.carry(this);
    headers.set(HttpHeaderNames.HOST, Origin.of(instance).authority());
    if (target.method() == HttpMethod.HEAD) {
      // a module may send a body after its answer to a HEAD anyway: never read as the next answer
      headers.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
    }
    if (pick != null && pick.connectionOfItsOwn()) {
      // the instance broke HTTP lately: a stray answer of its finds no next call here
      ownConnection = true;
      headers.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
    }
    if (timeoutNanos > 0) {
      carrier.watch(timeoutNanos);
    }
    if (pick != null) {
      pick.opened();
    }
    return this;
  }

  /**
   * @return whether the call got a connection (its request could be written)
   */
  public boolean opened() {
    return connection != null;
  }

  /**
   * @return why the module is called
   */
  public CallKind kind() {
    return target.kind();
  }

  /**
   * @return the module called
   */
  public String moduleId() {
    return moduleId;
  }

  /**
   * @return the instance the call goes to; null when the module had none
   */
  public Endpoint instance() {
    return instance;
  }

  /**
   * @return the address the call's connection goes to: the instance's, as resolved when it was
   *     connected; null before the call has a connection
   */
  public InetAddress peer() {
    return channel != null && channel.remoteAddress() instanceof InetSocketAddress address
        ? address.getAddress()
        : null;
  }

  /**
   * @return the request's headers, to be written before its head is sent ({@code Host} is set)
   */
  public MultiMap headers() {
    return headers;
  }

  /**
   * @return the request's method
   */
  public HttpMethod method() {
    return target.method();
  }

  /**
   * @return the request's path and query, as sent to the instance
   */
  public String uri() {
    String uri = target.underInstancePath() ? instance.path() + target.uri() : target.uri();
    return uri.isEmpty() ? "/" : uri;
  }

  /**
   * @return how long the instance may stay silent; 0 for no limit
   */
  public long timeoutMillis() {
    return target.timeoutMillis();
  }

  /**
   * @return the head of the answer once it has come; null before
   */
  public Head head() {
    return answer;
  }

  /**
   * @return whether the gateway gave the call up ({@link #abandon}) before it was over
   */
  boolean abandoned() {
    return abandoned;
  }

  Target target() {
    return target;
  }

  /**
   * @return the channel of the call's connection; null before it has one
   */
  Channel channel() {
    return channel;
  }

  Pick pick() {
    return pick;
  }

  /**
   * @return the instances this request went to, this call's last
   */
  List<Endpoint> tried() {
    return tried;
  }

  /**
   * @return whether this call is the request sent again after a reset
   */
  boolean resent() {
    return resent;
  }

  /**
   * @return when the call was opened ({@link System#nanoTime()})
   */
  public long startNanos() {
    return startNanos;
  }

  /**
   * @return the call for a message: {@code module M at URL}; a system call also names its method
   *     and path
   */
  public String describe() {
    String at = "module " + moduleId + (instance == null ? "" : " at " + instance.url());
    return kind() == CallKind.SYSTEM
        ? "system call " + target.method() + " " + target.uri() + " to " + at
        : at;
  }

  /**
   * @return a failed future of {@code failure} mapped as every caller takes it ({@link
   *     CallFailures#map})
   */
  public <T> Future<T> fail(Throwable failure) {
    return Future.failedFuture(CallFailures.map(this, failure));
  }

  /**
   * Sends the request whole and reads the module's final answer to its end, keeping at most {@code
   * keep.applyAsInt(status)} bytes of its body (the rest is read and dropped).
   *
   * @param body the body, sent with its {@code Content-Length}; null to send none (no {@code
   *     Content-Length} either)
   * @return the answer; failures mapped ({@link #fail})
   */
  public Future<Answer> exchange(Buffer body, IntUnaryOperator keep) {
    readWhole = true;
    sendHead(body == null ? Framing.NONE : Framing.length(body.length()));
    if (body != null && body.length() > 0) {
      write(((BufferInternal) body).getByteBuf());
    }
    end();
    return answered()
        .compose(
            answer ->
                read(keep.applyAsInt(answer.status()))
                    .map(kept -> new Answer(answer.status(), answer.headers(), kept)))
        .recover(this::fail);
  }

  /**
   * Sends the request's head (its headers as written by now), not flushed, framed as the gateway
   * decided: whatever {@code Content-Length} and {@code Transfer-Encoding} the headers hold are
   * removed and {@code framing}'s written. The body written after it must fit that framing: a piece
   * beyond it (any piece of a request framed {@link Framing#NONE}) and an end short of its length
   * fail the call with 500 and close its connection, never a byte of it written unframed.
   *
   * @param framing how the body that follows is delimited: none, a length, chunks
   */
  public void sendHead(Framing framing) {
    this.framing = framing;
    framing.writeTo(headers);
    headSent = true;
    if (!over) {
      channel.write(
          new DefaultHttpRequest(HttpVersion.HTTP_1_1, target.method().toNetty(), uri(), headers),
          channel.voidPromise());
    }
  }

  /**
   * Writes a piece of the request's body, not flushed; the call's timeout runs again from now (the
   * body moves).
   *
   * @param data owned by the call from now on
   */
  public void write(ByteBuf data) {
    if (over || abandoned) {
      data.release();
      return;
    }
    long total = bodySent + data.readableBytes();
    if (!headSent || !framing.allows(total)) {
      data.release();
      refused("a body of " + total + " bytes or more, framed " + framing);
      return;
    }
    bodySent = total;
    if (timeoutNanos > 0 && !answered) {
      connection.moved(timeoutNanos);
    }
    channel.write(new DefaultHttpContent(data), channel.voidPromise());
  }

  /** Ends the request (its body, if any, all written) and flushes it. */
  public void end() {
    if (over || abandoned) {
      sentWhole = true;
      return;
    }
    if (!headSent || !framing.completeAt(bodySent)) {
      refused("a body ended after " + bodySent + " bytes, framed " + framing);
      return;
    }
    sentWhole = true;
    channel.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT, channel.voidPromise());
    finishIfOver();
  }

  /** Flushes what was written. */
  public void flush() {
    if (!over) {
      channel.flush();
    }
  }

  /**
   * @return whether the module's connection takes more now (its write buffer is not full)
   */
  public boolean writable() {
    return channel == null || channel.isWritable();
  }

  /**
   * @param handler run each time the connection takes more again, after it did not
   */
  public void writabilityHandler(Runnable handler) {
    onWritable = handler;
  }

  /**
   * @param handler told once if the call fails after its answer's head came, or while its body is
   *     being sent (the connection broke, the call timed out)
   */
  public void failureHandler(Consumer<Throwable> handler) {
    onFailure = handler;
  }

  /**
   * @return the head of the module's final answer once it comes (an informational one, but {@code
   *     101}, skipped); its body waits, read from the connection no further than it came, until
   *     {@link #relay}. Fails as the call fails, not mapped; with a {@link BadAnswer} for a {@code
   *     101 Switching Protocols} (the gateway asks for no upgrade), the connection closed
   */
  public Future<Head> answered() {
    return head.future();
  }

  /**
   * Streams the answer's body to {@code sink}, from its first byte; the pieces that came with the
   * head go first.
   */
  public void relay(BodySink sink) {
    body = sink;
    if (held != null && !held.isEmpty()) {
      for (HttpContent content; (content = held.poll()) != null; ) {
        deliver(content);
      }
      sink.readComplete();
    }
    if (failure != null && !complete) {
      sink.failed(failure);
      return;
    }
    readable();
  }

  /** Stops reading the answer's body (what it is relayed to is full). */
  public void pause() {
    paused = true;
    readable();
  }

  /** Reads the answer's body on. */
  public void resume() {
    paused = false;
    readable();
  }

  /**
   * Reads the answer's body to its end, keeping at most {@code max} bytes; the rest is read and
   * dropped. The body must end within the call's timeout of the head; one that does not is
   * {@linkplain #abandon abandoned}, its connection closed rather than pooled half-read, and the
   * future fails with a {@link TimeoutException}.
   *
   * @return the first {@code max} bytes of the body
   */
  public Future<Buffer> read(int max) {
    readWhole = true;
    if (timeoutNanos > 0 && !complete) {
      connection.watch(timeoutNanos);
    }
    Promise<Buffer> ended = promise();
    Buffer kept = Buffer.buffer();
    relay(
        new BodySink() {
          @Override
          public void chunk(ByteBuf data) {
            int room = Math.min(max - kept.length(), data.readableBytes());
            if (room > 0) {
              byte[] bytes = new byte[room];
              data.getBytes(data.readerIndex(), bytes);
              kept.appendBytes(bytes);
            }
            data.release();
          }

          @Override
          public void end() {
            ended.tryComplete(kept);
          }

          @Override
          public void failed(Throwable cause) {
            abandon();
            ended.tryFail(cause);
          }
        });
    return ended.future();
  }

  /**
   * Gives the call up so that its connection never goes back to the pool dirty: HTTP/1.1 cancels a
   * request only by closing its connection. A call whose request was sent whole and whose answer
   * came in full is over already and its connection pooled; any other has its connection closed.
   * The rest of a body is dropped.
   */
  public void abandon() {
    if (abandoned) {
      return;
    }
    abandoned = true;
    if (connection == null || over && failure == null) {
      return;
    }
    if (!answered && failure == null) {
      failed(new ConnectionClosed());
    }
    releaseHeld();
    over = true;
    if (connection != null) {
      connection.finished(this, false);
    }
  }

  /**
   * @return whether the request was ended, its body all written
   */
  public boolean sentWhole() {
    return sentWhole;
  }

  // --- what the connection tells

  void read(HttpObject message) {
    if (message instanceof HttpResponse answer) {
      if (!head(answer)) {
        if (message instanceof HttpContent content) {
          content.release();
        }
        return;
      }
    }
    if (message instanceof HttpContent content) {
      if (content.decoderResult().isFailure()) {
        content.release();
        broken(content.decoderResult().cause());
      } else if (interim || !answered || abandoned || failure != null) {
        interim &= !(content instanceof LastHttpContent);
        content.release();
      } else if (body == null) {
        hold(content);
      } else {
        deliver(content);
      }
    }
  }

  /**
   * The connection that carries or carried this call read bytes that answer no request: the
   * instance broke HTTP ({@link io.okapigw.core.upstream.balance.Balancer#brokeProtocol}).
   */
  void brokeProtocol(String what) {
    client.brokeProtocol(this, what);
  }

  void readComplete() {
    if (body != null) {
      body.readComplete();
    }
  }

  void writabilityChanged() {
    if (onWritable != null) {
      onWritable.run();
    }
  }

  void timedOut() {
    failed(new TimeoutException("no answer within " + target.timeoutMillis() + " ms"));
    closeConnection();
  }

  /**
   * The connection closed or failed while it carried this call.
   *
   * @param cause the failure, or null for a close
   */
  void connectionClosed(Throwable cause) {
    failed(cause != null ? cause : new ConnectionClosed());
    over = true;
  }

  /**
   * @return whether the head is the final answer's, to be told and relayed
   */
  private boolean head(HttpResponse answer) {
    if (answer.decoderResult().isFailure()) {
      broken(answer.decoderResult().cause());
      return false;
    }
    int status = answer.status().code();
    if (status < 200 && status != 101) {
      // 100 Continue, 102, 103 Early Hints: the final answer follows
      interim = true;
      return false;
    }
    if (status < 200) {
      failed(
          new BadAnswer(
              "answered "
                  + status
                  + " "
                  + answer.status().reasonPhrase()
                  + " as its final answer, to a request that asked for no upgrade"));
      closeConnection();
      return false;
    }
    if (answered || over) {
      return false;
    }
    answered = true;
    response = answer;
    this.answer =
        new Head(
            status,
            answer.status().reasonPhrase(),
            (HeadersMultiMap) answer.headers(),
            Framing.of(answer));
    if (timeoutNanos > 0) {
      if (readWhole) {
        connection.watch(timeoutNanos);
      } else {
        connection.moved(timeoutNanos);
      }
    }
    client.answered(this, status);
    head.tryComplete(this.answer);
    return true;
  }

  private void hold(HttpContent content) {
    if (held == null) {
      held = new ArrayDeque<>(2);
    }
    held.add(content);
    readable();
  }

  private void deliver(HttpContent content) {
    if (timeoutNanos > 0 && !readWhole) {
      connection.moved(timeoutNanos);
    }
    ByteBuf data = content.content();
    if (data.isReadable()) {
      body.chunk(data);
    } else {
      data.release();
    }
    if (content instanceof LastHttpContent) {
      complete = true;
      connection.unwatch();
      body.end();
      finishIfOver();
    }
  }

  /** Reads from the connection unless paused, or holding an answer nobody relays yet. */
  private void readable() {
    if (channel != null && !over) {
      channel.config().setAutoRead(!paused && !(answered && body == null));
    }
  }

  private void finishIfOver() {
    if (sentWhole && complete && !over) {
      over = true;
      connection.finished(
          this,
          !abandoned
              && !ownConnection
              && target.method() != HttpMethod.HEAD
              && HttpUtil.isKeepAlive(response));
    }
  }

  /**
   * The gateway asked to write a body that does not fit the framing of the head it sent: a bug of
   * the caller, never bytes on the wire the module would read another way.
   */
  private void refused(String what) {
    log.error("{}: refused to write {}", describe(), what);
    failed(new HttpError(500, describe() + ": the gateway refused to send " + what));
    closeConnection();
  }

  private void broken(Throwable cause) {
    failed(new BadAnswer("answered with a message that breaks HTTP: " + cause.getMessage()));
    closeConnection();
  }

  /** The call failed: whoever waits is told, once; the connection is not reused. */
  private void failed(Throwable cause) {
    if (failure != null || over && complete && sentWhole) {
      return;
    }
    failure = cause;
    releaseHeld();
    if (!answered) {
      client.failed(this, cause);
      head.tryFail(cause);
    } else if (body != null && !complete) {
      body.failed(cause);
    }
    if (onFailure != null) {
      onFailure.accept(cause);
    }
  }

  private void closeConnection() {
    over = true;
    connection.finished(this, false);
  }

  private void releaseHeld() {
    if (held != null) {
      for (HttpContent content; (content = held.poll()) != null; ) {
        content.release();
      }
    }
  }

  private <T> Promise<T> promise() {
    return context == null ? Promise.promise() : context.promise();
  }

  static void debug(Throwable failure) {
    log.debug("module connection: {}", failure.toString());
  }
}
