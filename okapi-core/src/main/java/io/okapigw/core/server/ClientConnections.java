package io.okapigw.core.server;

import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.okapigw.core.http.Failures;
import io.okapigw.core.http.HttpError;
import io.okapigw.core.http.QuickAck;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.impl.HttpServerConnection;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client connections of one listener (one HTTP server of one event loop): at most the
 * listener's {@link ConnectionLimit} open, HTTP/1.1 read strictly ({@link StrictRequestDecoder}),
 * the {@code server.*} timeouts, refused requests answered and their connection closed. Every
 * listener of a node serves through one: the public one, the admin one and the health one. Confined
 * to the listener's event loop.
 *
 * <p>The idle timeout is Vert.x's own; the header timeout has no Vert.x option and is kept per
 * connection ({@link ConnectionGuard}) with the public API. Netty's request decoder is replaced
 * through Vert.x's internal {@code HttpServerConnection}: only there does a request still carry
 * both framing headers, or the bytes of a broken chunk. A socket failing is taken as a close
 * ({@link ResetAsClose}).
 */
public final class ClientConnections {

  private static final Logger log = LoggerFactory.getLogger(ClientConnections.class);
  private static final String DECODER = "httpDecoder";
  private static final String HANDLER = "handler";

  private final Vertx vertx;
  private final HttpServerOptions options;
  private final long headerTimeoutNanos;
  private final Drain drain;
  private final ConnectionMetrics metrics;
  private final ConnectionLimit limit;
  private final boolean closeOldestIdle;
  private final Map<HttpConnection, ConnectionGuard> guards = new IdentityHashMap<>();
  private final Set<ConnectionGuard> oldestFirst = new LinkedHashSet<>();

  /**
   * @param options the listener's options; HTTP/2 over cleartext is turned off (the strict reading
   *     and the header timeout are HTTP/1.1's) and the idle timeout set
   * @param timeouts the {@code server.*} timeouts
   * @param drain whether the node drains: then every answer closes its connection
   * @param metrics where connections are counted
   * @param limit the listener's limit on connections open at once
   */
  public ClientConnections(
      Vertx vertx,
      HttpServerOptions options,
      ServerOptions timeouts,
      Drain drain,
      ConnectionMetrics metrics,
      ConnectionLimit limit) {
    this(vertx, options, timeouts, drain, metrics, limit, false);
  }

  /**
   * As the other constructor, with {@code closeOldestIdle}: a connection past the limit closes the
   * oldest idle connection (one waiting for a request's head) and is served in its place, so that
   * idle connections cannot keep new ones out (the health listener's probes); closed at once only
   * when none is idle.
   */
  public ClientConnections(
      Vertx vertx,
      HttpServerOptions options,
      ServerOptions timeouts,
      Drain drain,
      ConnectionMetrics metrics,
      ConnectionLimit limit,
      boolean closeOldestIdle) {
    this.closeOldestIdle = closeOldestIdle;
    this.vertx = vertx;
    this.drain = drain;
    this.metrics = metrics;
    this.limit = limit;
    this.options =
        new HttpServerOptions(options)
            .setHttp2ClearTextEnabled(false)
            .setIdleTimeout((int) timeouts.idleTimeout().toMillis())
            .setIdleTimeoutUnit(TimeUnit.MILLISECONDS);
    this.headerTimeoutNanos = timeouts.headerTimeout().toNanos();
  }

  /**
   * @return a server whose connections are these, serving {@code requests}: each request that its
   *     connection admits (none once the connection is being closed)
   */
  public HttpServer server(Handler<HttpServerRequest> requests) {
    drain.onBegin(
        vertx.getOrCreateContext(), () -> guards.values().forEach(ConnectionGuard::drain));
    return vertx
        .createHttpServer(options)
        .connectionHandler(this::connected)
        .invalidRequestHandler(ClientConnections::invalid)
        .requestHandler(
            request -> {
              if (admit(request)) {
                requests.handle(request);
              }
            });
  }

  private boolean admit(HttpServerRequest request) {
    ConnectionGuard guard = guards.get(request.connection());
    return guard == null || guard.admit(request);
  }

  private void connected(HttpConnection connection) {
    if (!limit.tryOpen(() -> closeOldestIdle && closedOldestIdle())) {
      connection.close();
      return;
    }
    ConnectionGuard guard = new ConnectionGuard(vertx, connection, headerTimeoutNanos, drain);
    guards.put(connection, guard);
    oldestFirst.add(guard);
    metrics.opened();
    connection.closeHandler(
        v -> {
          guards.remove(connection);
          oldestFirst.remove(guard);
          guard.closed();
          if (guard.releaseSlot()) {
            limit.closed();
          }
          // after what the close does to the request in progress, in this task or queued before
          vertx.getOrCreateContext().runOnContext(done -> metrics.closed());
        });
    try {
      ChannelPipeline pipeline = pipeline(connection);
      pipeline.replace(DECODER, DECODER, new StrictRequestDecoder(options, guard::brokenBody));
      pipeline.addAfter(DECODER, "okapigwResetAsClose", ResetAsClose.INSTANCE);
      // a client that writes its request in pieces without TCP_NODELAY waits for no delayed ACK
      pipeline.addAfter(DECODER, QuickAck.NAME, QuickAck.create());
      pipeline.addBefore(
          HANDLER, DrainingAnswers.NAME, new DrainingAnswers(drain, guard::closeAfterAnswer));
    } catch (RuntimeException e) {
      // never serve with a decoder that is not the strict one
      log.error("cannot install the strict HTTP/1.1 decoder; closing the connection", e);
      connection.close();
    }
  }

  /** Closes the oldest idle connection, its slot given back at once; false if none is idle. */
  private boolean closedOldestIdle() {
    for (ConnectionGuard guard : oldestFirst) {
      if (guard.idle()) {
        guard.closeIdle();
        if (guard.releaseSlot()) {
          limit.closed();
        }
        return true;
      }
    }
    return false;
  }

  private static ChannelPipeline pipeline(HttpConnection connection) {
    if (!(connection instanceof HttpServerConnection internal)) {
      throw new IllegalStateException(
          "not a Vert.x HTTP/1.1 server connection: " + connection.getClass().getName());
    }
    return internal.channelHandlerContext().pipeline();
  }

  /**
   * A request whose head was refused: answered with the refusal's status and reason, or, for a head
   * Netty cannot read, with Vert.x's status for it (414 a line too long, 431 headers too large,
   * else 400) and Netty's reason; the connection is closed either way, and says so.
   */
  private static void invalid(HttpServerRequest request) {
    Throwable cause = request.decoderResult().cause();
    HttpError refusal = cause instanceof HttpError e ? e : refusal(cause);
    request.response().putHeader(HttpHeaders.CONNECTION, HttpHeaders.CLOSE);
    Failures.respond(request.response(), refusal);
    request.connection().close();
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
}
