package io.okapigw.core.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.impl.headers.HeadersMultiMap;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.buffer.BufferInternal;
import io.vertx.core.net.HostAndPort;
import java.io.RandomAccessFile;
import java.nio.channels.FileChannel;
import java.util.Set;

/**
 * The answer to a {@link ServerRequest}, written to its {@link ClientConnection} as Vert.x's
 * HTTP/1.x server writes one: status, headers ({@code Content-Length} set for an answer ended
 * whole, {@code Connection} for a connection that closes after it or an HTTP/1.0 one kept alive),
 * the body written as it comes or chunked. Besides the Vert.x API, the proxy relays a module's body
 * in Netty's buffers ({@link #writeBody}, {@link #flush}), flushed once per read of the module's
 * connection. Confined to the connection's event loop.
 */
public final class ServerResponse implements HttpServerResponse {

  private final ServerRequest request;
  private final ClientConnection connection;
  private final ContextInternal context;
  private final HttpVersion version;
  private final boolean head;
  private final HeadersMultiMap headers = HeadersMultiMap.httpHeaders();
  private HttpResponseStatus status = HttpResponseStatus.OK;
  private boolean keepAlive;
  private boolean headWritten;
  private AnswerFraming framing;
  private boolean written;
  private boolean closed;
  private long bytesWritten;
  private Handler<Void> drainHandler;
  private Handler<Throwable> exceptionHandler;
  private Handler<Void> closeHandler;
  private Handler<Void> endHandler;
  private Handler<Void> headersEndHandler;
  private Handler<Void> bodyEndHandler;

  ServerResponse(
      ServerRequest request,
      ClientConnection connection,
      ContextInternal context,
      HttpVersion version,
      HttpMethod method,
      boolean keepAlive) {
    this.request = request;
    this.connection = connection;
    this.context = context;
    this.version = version;
    this.head = method == HttpMethod.HEAD;
    this.keepAlive = keepAlive;
  }

  /** The request this answers. */
  ServerRequest request() {
    return request;
  }

  /**
   * @return whether the connection stays open after this answer
   */
  boolean keepAlive() {
    return keepAlive;
  }

  /**
   * The connection closes after this answer, which says so unless its head is sent: a drain, a body
   * the connection cannot read on.
   */
  void closeAfter() {
    keepAlive = false;
    if (!headWritten) {
      headers.set(HttpHeaders.CONNECTION, HttpHeaders.CLOSE);
    }
  }

  // --- the proxy's relay of a module's body, in Netty's buffers

  /**
   * Writes a piece of the body, not flushed (the head first, if not sent).
   *
   * @param data owned by the response from now on
   */
  public void writeBody(ByteBuf data) {
    if (written || closed) {
      data.release();
      return;
    }
    if (!headWritten) {
      connection.write(head(-1));
    }
    if (!fits(data)) {
      return;
    }
    bytesWritten += data.readableBytes();
    connection.write(new DefaultHttpContent(data));
  }

  /** Flushes what was written. */
  public void flush() {
    connection.flush();
  }

  /**
   * @return whether the connection takes more now (its write buffer is not full)
   */
  public boolean writable() {
    return connection.writable();
  }

  // --- HttpServerResponse

  @Override
  public MultiMap headers() {
    return headers;
  }

  @Override
  public MultiMap trailers() {
    return HeadersMultiMap.httpHeaders();
  }

  @Override
  public int getStatusCode() {
    return status.code();
  }

  @Override
  public HttpServerResponse setStatusCode(int statusCode) {
    checkHeadWritten();
    status = HttpResponseStatus.valueOf(statusCode);
    return this;
  }

  @Override
  public String getStatusMessage() {
    return status.reasonPhrase();
  }

  @Override
  public HttpServerResponse setStatusMessage(String statusMessage) {
    checkHeadWritten();
    status = new HttpResponseStatus(status.code(), statusMessage);
    return this;
  }

  @Override
  public HttpServerResponse setChunked(boolean chunked) {
    checkHeadWritten();
    if (version != HttpVersion.HTTP_1_0) {
      if (chunked) {
        headers.set(HttpHeaders.TRANSFER_ENCODING, HttpHeaders.CHUNKED);
      } else {
        headers.remove(HttpHeaders.TRANSFER_ENCODING);
      }
    }
    return this;
  }

  @Override
  public boolean isChunked() {
    return headers.contains(HttpHeaders.TRANSFER_ENCODING, HttpHeaders.CHUNKED, true);
  }

  @Override
  public HttpServerResponse putHeader(String name, String value) {
    checkHeadWritten();
    headers.set(name, value);
    return this;
  }

  @Override
  public HttpServerResponse putHeader(CharSequence name, CharSequence value) {
    checkHeadWritten();
    headers.set(name, value);
    return this;
  }

  @Override
  public HttpServerResponse putHeader(String name, Iterable<String> values) {
    checkHeadWritten();
    headers.set(name, values);
    return this;
  }

  @Override
  public HttpServerResponse putHeader(CharSequence name, Iterable<CharSequence> values) {
    checkHeadWritten();
    headers.set(name, values);
    return this;
  }

  @Override
  public HttpServerResponse putTrailer(String name, String value) {
    return this;
  }

  @Override
  public HttpServerResponse putTrailer(CharSequence name, CharSequence value) {
    return this;
  }

  @Override
  public HttpServerResponse putTrailer(String name, Iterable<String> values) {
    return this;
  }

  @Override
  public HttpServerResponse putTrailer(CharSequence name, Iterable<CharSequence> value) {
    return this;
  }

  @Override
  public HttpServerResponse closeHandler(Handler<Void> handler) {
    closeHandler = handler;
    return this;
  }

  @Override
  public HttpServerResponse endHandler(Handler<Void> handler) {
    endHandler = handler;
    return this;
  }

  @Override
  public HttpServerResponse headersEndHandler(Handler<Void> handler) {
    headersEndHandler = handler;
    return this;
  }

  @Override
  public HttpServerResponse bodyEndHandler(Handler<Void> handler) {
    bodyEndHandler = handler;
    return this;
  }

  @Override
  public HttpServerResponse exceptionHandler(Handler<Throwable> handler) {
    exceptionHandler = handler;
    return this;
  }

  @Override
  public HttpServerResponse setWriteQueueMaxSize(int maxSize) {
    return this;
  }

  @Override
  public boolean writeQueueFull() {
    return !connection.writable();
  }

  @Override
  public HttpServerResponse drainHandler(Handler<Void> handler) {
    drainHandler = handler;
    return this;
  }

  @Override
  public Future<Void> write(Buffer data) {
    return write(((BufferInternal) data).getByteBuf());
  }

  @Override
  public Future<Void> write(String chunk, String enc) {
    return write(Buffer.buffer(chunk, enc));
  }

  @Override
  public Future<Void> write(String chunk) {
    return write(Buffer.buffer(chunk));
  }

  private Future<Void> write(ByteBuf data) {
    if (written) {
      throw new IllegalStateException("Response has already been written");
    }
    if (!headWritten
        && !headers.contains(HttpHeaders.TRANSFER_ENCODING)
        && !headers.contains(HttpHeaders.CONTENT_LENGTH)
        && version != HttpVersion.HTTP_1_0) {
      throw new IllegalStateException(
          "You must set the Content-Length header to be the total size of the message body BEFORE"
              + " sending any data if you are not using HTTP chunked encoding.");
    }
    if (closed) {
      return context.failedFuture(new HttpClosedException("Connection was closed"));
    }
    if (!headWritten) {
      connection.write(head(-1));
    }
    if (!fits(data)) {
      return context.failedFuture(new IllegalStateException("more body than the answer's framing"));
    }
    bytesWritten += data.readableBytes();
    Promise<Void> done = context.promise();
    connection.writeAndFlush(new DefaultHttpContent(data), done);
    return done.future();
  }

  @Override
  public Future<Void> writeHead() {
    if (headWritten) {
      throw new IllegalStateException();
    }
    Promise<Void> done = context.promise();
    connection.writeAndFlush(head(-1), done);
    return done.future();
  }

  @Override
  public Future<Void> writeContinue() {
    Promise<Void> done = context.promise();
    connection.writeContinue(done);
    return done.future();
  }

  @Override
  public Future<Void> writeEarlyHints(MultiMap headers) {
    return context.failedFuture("early hints are not sent");
  }

  @Override
  public Future<Void> end(String chunk) {
    return end(Buffer.buffer(chunk));
  }

  @Override
  public Future<Void> end(String chunk, String enc) {
    return end(Buffer.buffer(chunk, enc));
  }

  @Override
  public Future<Void> end(Buffer chunk) {
    return end(((BufferInternal) chunk).getByteBuf());
  }

  @Override
  public Future<Void> end() {
    return end(Unpooled.EMPTY_BUFFER);
  }

  /**
   * Ends the answer with its last piece of body, flushed.
   *
   * @param data owned by the response from now on
   */
  public Future<Void> end(ByteBuf data) {
    if (written) {
      data.release();
      throw new IllegalStateException("Response has already been written");
    }
    written = true;
    Promise<Void> done = context.promise();
    if (closed) {
      data.release();
      done.fail(new HttpClosedException("Connection was closed"));
      return done.future();
    }
    if (!headWritten) {
      connection.write(head(bytesWritten + data.readableBytes()));
    }
    if (!framing.fits(data.readableBytes())) {
      data.release();
      data = Unpooled.EMPTY_BUFFER;
    }
    bytesWritten += data.readableBytes();
    if (!framing.complete()) {
      // cut short of its length (or past it): the client must not wait for more, nor read the next
      // answer as the rest of this one
      keepAlive = false;
    }
    connection.endResponse(
        this,
        data.isReadable() ? new DefaultLastHttpContent(data) : LastHttpContent.EMPTY_LAST_CONTENT,
        done);
    if (!data.isReadable()) {
      data.release();
    }
    if (bodyEndHandler != null) {
      bodyEndHandler.handle(null);
    }
    if (!closed && endHandler != null) {
      endHandler.handle(null);
    }
    connection.responseEnded(this);
    return done.future();
  }

  @Override
  public Future<Void> sendFile(String filename, long offset, long length) {
    return context.failedFuture("files are not sent");
  }

  @Override
  public Future<Void> sendFile(RandomAccessFile file, long offset, long length) {
    return context.failedFuture("files are not sent");
  }

  @Override
  public Future<Void> sendFile(FileChannel channel, long offset, long length) {
    return context.failedFuture("files are not sent");
  }

  @Override
  public boolean ended() {
    return written;
  }

  @Override
  public boolean closed() {
    return closed;
  }

  @Override
  public boolean headWritten() {
    return headWritten;
  }

  @Override
  public long bytesWritten() {
    return bytesWritten;
  }

  @Override
  public int streamId() {
    return -1;
  }

  @Override
  public Future<HttpServerResponse> push(
      HttpMethod method, HostAndPort authority, String path, MultiMap headers) {
    return context.failedFuture("HTTP/1 does not support response push");
  }

  /** Closes the connection: HTTP/1.1 can end an answer begun in no other way. */
  @Override
  public Future<Void> reset(long code) {
    if (written) {
      return context.failedFuture("Response written");
    }
    connection.close();
    return context.succeededFuture();
  }

  @Override
  public Future<Void> writeCustomFrame(int type, int flags, Buffer payload) {
    return context.failedFuture("HTTP/1 does not support custom frames");
  }

  @Override
  public HttpServerResponse addCookie(Cookie cookie) {
    checkHeadWritten();
    headers.add(HttpHeaders.SET_COOKIE, cookie.encode());
    return this;
  }

  @Override
  public Cookie removeCookie(String name, boolean invalidate) {
    return null;
  }

  @Override
  public Set<Cookie> removeCookies(String name, boolean invalidate) {
    return Set.of();
  }

  @Override
  public Cookie removeCookie(String name, String domain, String path, boolean invalidate) {
    return null;
  }

  // --- what the connection tells

  /** The connection writes more again. */
  void drained() {
    Handler<Void> handler = drainHandler;
    if (handler != null) {
      context.dispatch(null, handler);
    }
  }

  /** The connection closed: who waits for the answer to go is told, once. */
  void connectionClosed() {
    if (closed) {
      return;
    }
    closed = true;
    Handler<Throwable> failed = written ? null : exceptionHandler;
    Handler<Void> ended = written ? null : endHandler;
    if (failed != null) {
      context.dispatch(new HttpClosedException("Connection was closed"), failed);
    }
    if (ended != null) {
      context.dispatch(null, ended);
    }
    if (closeHandler != null) {
      context.dispatch(null, closeHandler);
    }
  }

  /**
   * @return whether {@code data} fits the answer's framing; if not, it is released and the
   *     connection closed: the answer is cut, never written past its framing
   */
  private boolean fits(ByteBuf data) {
    if (framing.fits(data.readableBytes())) {
      return true;
    }
    data.release();
    connection.close();
    return false;
  }

  private Object head(long contentLength) {
    framing = AnswerFraming.decide(version, status.code(), head, headers, contentLength);
    // decided as the head goes out: the drain's notice may still be queued behind this task
    if (framing.untilClose() || connection.nodeDraining()) {
      keepAlive = false;
    }
    if (version == HttpVersion.HTTP_1_0 && keepAlive) {
      headers.set(HttpHeaders.CONNECTION, HttpHeaders.KEEP_ALIVE);
    } else if (!keepAlive
        && (version == HttpVersion.HTTP_1_1 || headers.contains(HttpHeaders.CONNECTION))) {
      headers.set(HttpHeaders.CONNECTION, HttpHeaders.CLOSE);
    }
    if (headersEndHandler != null) {
      headersEndHandler.handle(null);
    }
    headWritten = true;
    return ResponseEncoder.head(version, status, headers, head);
  }

  private void checkHeadWritten() {
    if (headWritten) {
      throw new IllegalStateException("Response head already sent");
    }
  }
}
