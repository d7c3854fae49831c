package io.okapigw.core.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.okapigw.core.http.BodySink;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpFrame;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerFileUpload;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.http.StreamPriority;
import io.vertx.core.http.impl.HttpUtils;
import io.vertx.core.http.impl.headers.HeadersMultiMap;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.http.HttpServerRequestInternal;
import io.vertx.core.net.HostAndPort;
import io.vertx.core.net.NetSocket;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Set;

/**
 * A client's request read by a {@link ClientConnection}, as the Vert.x request API the gateway's
 * handlers are written against (the proxy, the admin API's router, CORS). Its body is read as
 * Vert.x reads one (a handler, pause and resume, {@link #body()}), or, for the proxy's relay,
 * handed on in Netty's buffers ({@link #relayBody}); while it is paused its connection reads no
 * further. The head's headers are the decoder's {@link HeadersMultiMap}, read where they are.
 * Confined to the connection's event loop.
 */
public final class ServerRequest extends HttpServerRequestInternal {

  private final ClientConnection connection;
  private final HttpRequest request;
  private final ContextInternal context;
  private final ServerResponse response;
  private final HeadersMultiMap headers;
  private HttpMethod method;
  private String uri;
  private String path;
  private String query;
  private MultiMap params;
  private boolean semicolonParams;
  private Charset paramsCharset = StandardCharsets.UTF_8;
  private HostAndPort authority;
  private Handler<Buffer> handler;
  private Handler<Void> endHandler;
  private Handler<Throwable> exceptionHandler;
  private BodySink sink;
  private Buffer whole;
  private Promise<Buffer> bodyPromise;
  private Promise<Void> endPromise;
  private boolean paused;
  private boolean ended;
  private boolean failed;
  private long bytesRead;

  ServerRequest(
      ClientConnection connection,
      HttpRequest request,
      ContextInternal context,
      boolean keepAlive) {
    this.connection = connection;
    this.request = request;
    this.context = context;
    this.headers =
        request.headers() instanceof HeadersMultiMap multiMap
            ? multiMap
            : (HeadersMultiMap) HeadersMultiMap.httpHeaders().addAll(request.headers());
    this.response =
        new ServerResponse(
            this, connection, context, request.protocolVersion(), method(), keepAlive);
  }

  /**
   * @param request a listener's request, or one that wraps it (vert.x-web's router hands its
   *     handlers a wrapper of the request it routes: the browser requests of CORS)
   * @return the listener's request
   * @throws IllegalArgumentException if {@code request} is not a listener's
   */
  public static ServerRequest of(HttpServerRequest request) {
    if (request instanceof ServerRequest own) {
      return own;
    }
    if (request.response() instanceof ServerResponse response) {
      return response.request();
    }
    throw new IllegalArgumentException("not a listener's request: " + request.getClass());
  }

  /**
   * Relays the body from now on: its pieces, in Netty's buffers, go to {@code to}, and the request
   * reads on (it is resumed).
   */
  public void relayBody(BodySink to) {
    sink = to;
    resume();
  }

  /**
   * @return whether the whole body has been read
   */
  boolean bodyEnded() {
    return ended;
  }

  /** The rest of the body is read and dropped (no one reads it any more). */
  public void dropBody() {
    sink = null;
    handler = null;
    whole = null;
    resume();
  }

  boolean paused() {
    return paused;
  }

  /** A piece of the body (the last, or not): handed on, or dropped if no one reads it. */
  void content(HttpContent content) {
    ByteBuf data = content.content();
    bytesRead += data.readableBytes();
    boolean last = content instanceof LastHttpContent;
    if (sink != null) {
      if (data.isReadable()) {
        sink.chunk(data);
      } else {
        data.release();
      }
    } else {
      if (data.isReadable() && (handler != null || whole != null)) {
        Buffer chunk = Buffer.buffer(ByteBufUtil.getBytes(data));
        if (whole != null) {
          whole.appendBuffer(chunk);
        }
        if (handler != null) {
          context.dispatch(chunk, handler);
        }
      }
      data.release();
    }
    if (last) {
      ended = true;
      ended();
    }
  }

  /** The connection read all it had for now. */
  void readComplete() {
    if (sink != null) {
      sink.readComplete();
    }
  }

  /** The body cannot be read on: the connection closed, or a chunk was broken. */
  void failed(Throwable cause) {
    if (ended || failed) {
      return;
    }
    failed = true;
    if (sink != null) {
      sink.failed(cause);
    }
    if (exceptionHandler != null) {
      context.dispatch(cause, exceptionHandler);
    }
    if (bodyPromise != null) {
      bodyPromise.tryFail(cause);
    }
    if (endPromise != null) {
      endPromise.tryFail(cause);
    }
  }

  private void ended() {
    if (sink != null) {
      sink.end();
    }
    if (endHandler != null) {
      context.dispatch(null, endHandler);
    }
    if (bodyPromise != null) {
      bodyPromise.tryComplete(whole);
    }
    if (endPromise != null) {
      endPromise.tryComplete();
    }
  }

  // --- HttpServerRequest

  @Override
  public ContextInternal context() {
    return context;
  }

  @Override
  public Object metric() {
    return null;
  }

  @Override
  public HttpServerRequest exceptionHandler(Handler<Throwable> handler) {
    exceptionHandler = handler;
    return this;
  }

  @Override
  public HttpServerRequest handler(Handler<Buffer> handler) {
    this.handler = handler;
    return this;
  }

  @Override
  public HttpServerRequest pause() {
    paused = true;
    return this;
  }

  @Override
  public HttpServerRequest resume() {
    return fetch(Long.MAX_VALUE);
  }

  @Override
  public HttpServerRequest fetch(long amount) {
    if (paused && amount > 0) {
      paused = false;
      connection.readOn();
    }
    return this;
  }

  @Override
  public HttpServerRequest endHandler(Handler<Void> endHandler) {
    this.endHandler = endHandler;
    return this;
  }

  @Override
  public HttpVersion version() {
    return request.protocolVersion() == io.netty.handler.codec.http.HttpVersion.HTTP_1_0
        ? HttpVersion.HTTP_1_0
        : HttpVersion.HTTP_1_1;
  }

  @Override
  public HttpMethod method() {
    if (method == null) {
      method = HttpMethod.fromNetty(request.method());
    }
    return method;
  }

  @Override
  public String scheme() {
    return "http";
  }

  @Override
  public String uri() {
    if (uri == null) {
      uri = request.uri();
    }
    return uri;
  }

  @Override
  public String path() {
    if (path == null) {
      String u = uri();
      int end = u.indexOf('?');
      path = end < 0 ? u : u.substring(0, end);
    }
    return path;
  }

  @Override
  public String query() {
    if (query == null) {
      String u = uri();
      int start = u.indexOf('?');
      query = start < 0 ? null : u.substring(start + 1);
    }
    return query;
  }

  @Override
  public HostAndPort authority() {
    if (authority == null) {
      String host = headers.get(HttpHeaders.HOST);
      authority = host == null ? null : HostAndPort.parseAuthority(host, -1);
    }
    return authority;
  }

  @Override
  public HostAndPort authority(boolean real) {
    return real ? null : authority();
  }

  @Override
  public long bytesRead() {
    return bytesRead;
  }

  @Override
  public ServerResponse response() {
    return response;
  }

  @Override
  public MultiMap headers() {
    return headers;
  }

  @Override
  public HttpServerRequest setParamsCharset(String charset) {
    Charset next = Charset.forName(charset);
    if (!next.equals(paramsCharset)) {
      params = null;
    }
    paramsCharset = next;
    return this;
  }

  @Override
  public String getParamsCharset() {
    return paramsCharset.name();
  }

  @Override
  public MultiMap params(boolean semicolonIsNormalChar) {
    if (params == null || semicolonIsNormalChar != semicolonParams) {
      params = HttpUtils.params(uri(), paramsCharset, semicolonIsNormalChar);
      semicolonParams = semicolonIsNormalChar;
    }
    return params;
  }

  @Override
  public String absoluteURI() {
    String u = uri();
    if (u.startsWith("http://") || u.startsWith("https://")) {
      return u;
    }
    String host = headers.get(HttpHeaders.HOST);
    return "http://" + (host == null || host.isEmpty() ? connection.localAuthority() : host) + u;
  }

  @Override
  public Future<NetSocket> toNetSocket() {
    return context.failedFuture("the gateway's connections are not handed over as sockets");
  }

  @Override
  public HttpServerRequest setExpectMultipart(boolean expect) {
    return this;
  }

  @Override
  public boolean isExpectMultipart() {
    return false;
  }

  @Override
  public HttpServerRequest uploadHandler(Handler<HttpServerFileUpload> uploadHandler) {
    return this;
  }

  @Override
  public MultiMap formAttributes() {
    return HeadersMultiMap.caseInsensitive();
  }

  @Override
  public String getFormAttribute(String attributeName) {
    return null;
  }

  @Override
  public Future<ServerWebSocket> toWebSocket() {
    return context.failedFuture("the gateway serves no WebSocket");
  }

  @Override
  public boolean isEnded() {
    return ended;
  }

  @Override
  public HttpServerRequest customFrameHandler(Handler<HttpFrame> handler) {
    return this;
  }

  @Override
  public HttpConnection connection() {
    return connection.view();
  }

  @Override
  public HttpServerRequest streamPriorityHandler(Handler<StreamPriority> handler) {
    return this;
  }

  @Override
  public DecoderResult decoderResult() {
    return request.decoderResult();
  }

  @Override
  public Cookie getCookie(String name) {
    return null;
  }

  @Override
  public Cookie getCookie(String name, String domain, String path) {
    return null;
  }

  @Override
  public Set<Cookie> cookies(String name) {
    return Set.of();
  }

  @Override
  public Set<Cookie> cookies() {
    return Set.of();
  }

  @Override
  public Future<Buffer> body() {
    checkEnded();
    if (bodyPromise == null) {
      bodyPromise = context.promise();
      whole = Buffer.buffer();
    }
    return bodyPromise.future();
  }

  @Override
  public Future<Void> end() {
    checkEnded();
    if (endPromise == null) {
      endPromise = context.promise();
    }
    return endPromise.future();
  }

  private void checkEnded() {
    if (ended) {
      throw new IllegalStateException("Request has already been read");
    }
  }
}
