package io.okapigw.core.server;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.GoAway;
import io.vertx.core.http.Http2Settings;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.net.SocketAddress;
import java.net.InetSocketAddress;
import java.security.cert.Certificate;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLSession;

/**
 * A {@link ClientConnection} as Vert.x's connection API shows it to the handlers of its requests:
 * its addresses, and closing it. HTTP/2's operations do not apply.
 */
final class ConnectionView implements HttpConnection {

  private final ClientConnection connection;
  private SocketAddress remote;

  ConnectionView(ClientConnection connection) {
    this.connection = connection;
  }

  /**
   * @return the connection's channel
   */
  io.netty.channel.Channel channel() {
    return connection.channel();
  }

  /** Keeps {@code server.idle-timeout} from closing the connection while {@code work} runs. */
  <T> Future<T> suspendIdleWhile(Future<T> work) {
    return connection.suspendIdle(work);
  }

  @Override
  public HttpConnection goAway(long errorCode, int lastStreamId, Buffer debugData) {
    return this;
  }

  @Override
  public HttpConnection goAwayHandler(Handler<GoAway> handler) {
    return this;
  }

  @Override
  public HttpConnection shutdownHandler(Handler<Void> handler) {
    return this;
  }

  @Override
  public Future<Void> shutdown(long timeout, TimeUnit unit) {
    connection.shutdown();
    return Future.succeededFuture();
  }

  @Override
  public Future<Void> close() {
    connection.close();
    return Future.succeededFuture();
  }

  @Override
  public HttpConnection closeHandler(Handler<Void> handler) {
    return this;
  }

  @Override
  public Http2Settings settings() {
    return null;
  }

  @Override
  public Future<Void> updateSettings(Http2Settings settings) {
    return Future.failedFuture("HTTP/1.x");
  }

  @Override
  public Http2Settings remoteSettings() {
    return null;
  }

  @Override
  public HttpConnection remoteSettingsHandler(Handler<Http2Settings> handler) {
    return this;
  }

  @Override
  public Future<Buffer> ping(Buffer data) {
    return Future.failedFuture("HTTP/1.x");
  }

  @Override
  public HttpConnection pingHandler(Handler<Buffer> handler) {
    return this;
  }

  @Override
  public HttpConnection exceptionHandler(Handler<Throwable> handler) {
    return this;
  }

  @Override
  public SocketAddress remoteAddress() {
    if (remote == null && connection.channel().remoteAddress() instanceof InetSocketAddress a) {
      remote = SocketAddress.inetSocketAddress(a);
    }
    return remote;
  }

  @Override
  public SocketAddress remoteAddress(boolean real) {
    return remoteAddress();
  }

  @Override
  public SocketAddress localAddress() {
    return connection.channel().localAddress() instanceof InetSocketAddress a
        ? SocketAddress.inetSocketAddress(a)
        : null;
  }

  @Override
  public SocketAddress localAddress(boolean real) {
    return localAddress();
  }

  @Override
  public boolean isSsl() {
    return false;
  }

  @Override
  public SSLSession sslSession() {
    return null;
  }

  @Override
  public List<Certificate> peerCertificates() {
    return List.of();
  }

  @Override
  public String indicatedServerName() {
    return null;
  }
}
