package io.okapigw.core.upstream;

import io.netty.channel.ConnectTimeoutException;
import io.okapigw.core.http.HttpError;
import io.okapigw.core.routing.Endpoint;
import io.okapigw.core.routing.Stage;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.net.ConnectException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens requests to module instances (round-robin over a stage's instances) and turns connection
 * failures into errors naming the module: refused or unknown host 502, timeout 504, no instance
 * 502. Callers that must fail closed (the auth stage) remap with {@link #mapFailure}.
 */
public final class UpstreamClient {

  private static final Logger log = LoggerFactory.getLogger(UpstreamClient.class);

  /** Size of the pieces a body is relayed in (the HTTP decoder's maximum chunk size). */
  public static final int BODY_CHUNK_SIZE = 64 * 1024;

  private final Vertx vertx;
  private final HttpClientAgent client;
  private final long idleTimeoutMillis;

  public UpstreamClient(Vertx vertx, UpstreamOptions options) {
    this.vertx = vertx;
    this.idleTimeoutMillis = options.idleTimeout().toMillis();
    this.client =
        vertx.createHttpClient(
            new HttpClientOptions()
                .setKeepAlive(true)
                .setTcpNoDelay(true)
                .setMaxHeaderSize(options.maxHeaderSize())
                // relay bodies in 64 KiB pieces, not Netty's default 8 KiB: 8x fewer writes and
                // flushes
                .setMaxChunkSize(BODY_CHUNK_SIZE)
                .setConnectTimeout((int) options.connectTimeout().toMillis()),
            new PoolOptions()
                .setHttp1MaxSize(options.maxConnectionsPerHost())
                .setMaxWaitQueueSize(-1));
  }

  /**
   * Opens a request to the next instance of the stage's module.
   *
   * @param uri path and query, as the client sent them
   * @return the request, not yet sent; fails with 502/504 naming the module
   */
  public Future<Target> open(Stage stage, HttpMethod method, String uri) {
    Endpoint endpoint = stage.instances().next().orElse(null);
    if (endpoint == null) {
      return Future.failedFuture(
          HttpError.badGateway(
              "module "
                  + stage.moduleId()
                  + " has no running instance (register one at /_/discovery/modules)"));
    }
    Target target = new Target(stage.moduleId(), endpoint.url());
    RequestOptions options =
        new RequestOptions()
            .setMethod(method)
            .setHost(endpoint.host())
            .setPort(endpoint.port())
            .setSsl(endpoint.ssl())
            .setURI(uri)
            .setIdleTimeout(idleTimeoutMillis);
    if (method == HttpMethod.HEAD) {
      // a module may send a body after its answer to a HEAD anyway: on a pooled connection those
      // bytes would be read as the answer to the next request sent there
      options.putHeader(HttpHeaders.CONNECTION, HttpHeaders.CLOSE);
    }
    return client
        .request(options)
        .map(request -> target.with(quiet(request, method == HttpMethod.HEAD)))
        .recover(e -> Future.failedFuture(mapFailure(target, e)));
  }

  /**
   * The module's final answer, as every caller takes it: an informational status (1xx) as the final
   * answer, a {@code 101 Switching Protocols} above all (the gateway forwards no {@code Upgrade},
   * so it never asks for one), throws a {@link BadAnswer} (502 through {@link #mapFailure}) and its
   * connection is closed: it is never relayed, nor the connection pooled to read the next answer
   * from bytes of another protocol.
   *
   * @return {@code response}, a final answer
   * @throws BadAnswer for a 1xx
   */
  public static HttpClientResponse finalAnswer(HttpClientResponse response) {
    int status = response.statusCode();
    if (status >= 200) {
      return response;
    }
    HttpConnection connection = response.request().connection();
    // what follows the head is not HTTP: Vert.x would log an ERROR for it before the close
    connection.exceptionHandler(UpstreamClient::debug);
    connection.close();
    throw new BadAnswer(
        "answered "
            + status
            + (response.statusMessage() == null ? "" : " " + response.statusMessage())
            + " as its final answer, to a request that asked for no upgrade");
  }

  /** A module's answer that breaks HTTP: the request fails with 502 naming the module. */
  public static final class BadAnswer extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BadAnswer(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * Vert.x logs every exception of a request or response without an exception handler (a reset or
   * closed connection: {@code HttpClientRequestImpl - Stream reset}, or a stack trace from {@code
   * HttpClientResponseImpl}), one or more lines each, however many. The callers learn of it through
   * their futures and answer and log it once, rate-limited ({@code Failures}); here it is only a
   * debug line. So are bytes that follow the last answer of a connection.
   */
  private static HttpClientRequest quiet(HttpClientRequest request, boolean lastOnConnection) {
    request.exceptionHandler(UpstreamClient::debug);
    request.response().onSuccess(response -> response.exceptionHandler(UpstreamClient::debug));
    if (lastOnConnection) {
      // bytes a module sends after its answer (a body after a HEAD's) are not an answer: Vert.x
      // would log an ERROR for them before the connection closes
      request.connection().exceptionHandler(UpstreamClient::debug);
    }
    return request;
  }

  private static void debug(Throwable failure) {
    log.debug("module connection: {}", failure.toString());
  }

  /**
   * Keeps a request's idle timeout ({@code proxy.idle-timeout}) from firing while the client's body
   * keeps moving: Vert.x counts only what the module sends back, so an upload that moves all along
   * but lasts longer than the timeout (a large file on a slow link) would be cut with 504. Every
   * quarter of the timeout, while the watch runs, the timeout is set again if the client sent bytes
   * since the last look: a body that stops for the timeout still times out (within one and a
   * quarter timeouts). To be called on the request's event loop.
   *
   * @param request a request to a module, its head sent
   * @param in the client's request whose body is streamed to it
   * @return stops the watch: to be called once the body is all sent or the exchange given up
   */
  public Runnable watchUpload(HttpClientRequest request, HttpServerRequest in) {
    UploadWatch watch = new UploadWatch(request, in, in.bytesRead());
    watch.timer = vertx.setTimer(watchPeriod(), watch);
    return () -> {
      watch.stopped = true;
      vertx.cancelTimer(watch.timer);
    };
  }

  private long watchPeriod() {
    return Math.max(1, idleTimeoutMillis / 4);
  }

  private final class UploadWatch implements Handler<Long> {
    private final HttpClientRequest request;
    private final HttpServerRequest in;
    private long seen;
    private long timer;
    private boolean stopped;

    UploadWatch(HttpClientRequest request, HttpServerRequest in, long seen) {
      this.request = request;
      this.in = in;
      this.seen = seen;
    }

    @Override
    public void handle(Long id) {
      if (stopped) {
        return;
      }
      long read = in.bytesRead();
      if (read != seen) {
        seen = read;
        request.idleTimeout(idleTimeoutMillis);
      }
      timer = vertx.setTimer(watchPeriod(), this);
    }
  }

  /**
   * @return {@code proxy.idle-timeout} in milliseconds
   */
  public long idleTimeoutMillis() {
    return idleTimeoutMillis;
  }

  /**
   * @return whether {@code failure} is a timeout (Vert.x's, Netty's, or a future's)
   */
  public static boolean isTimeoutFailure(Throwable failure) {
    return isTimeout(failure);
  }

  /**
   * @return the failure as an {@link HttpError} naming the target (502/504); others as is
   */
  public static Throwable mapFailure(Target target, Throwable failure) {
    if (failure instanceof HttpError) {
      return failure;
    }
    if (isTimeout(failure)) {
      return HttpError.gatewayTimeout(
          "module " + target.moduleId() + " at " + target.baseUrl() + " did not answer in time");
    }
    if (failure instanceof BadAnswer) {
      return HttpError.badGateway(
          "module " + target.moduleId() + " at " + target.baseUrl() + " " + failure.getMessage());
    }
    return HttpError.badGateway(
        "module "
            + target.moduleId()
            + " at "
            + target.baseUrl()
            + " could not be reached: "
            + describe(failure));
  }

  /**
   * @return a function for {@code recover} that maps failures of calls to {@code target}
   */
  public static <T> Function<Throwable, Future<T>> failureFor(Target target) {
    return e -> Future.failedFuture(mapFailure(target, e));
  }

  /**
   * Reads a module's answer to a request sent whole (a filter's, the auth filter's) to its end,
   * keeping at most {@code max} bytes of the body; the rest is read and dropped. The body must end
   * within the idle timeout of the head (Vert.x times out only the wait for the head): one that
   * does not is {@linkplain #abandon abandoned}, its connection closed rather than kept busy or
   * pooled with the answer half-read, and the future fails with a {@link TimeoutException}.
   *
   * @return the first {@code max} bytes of the body
   */
  public Future<Buffer> read(HttpClientResponse response, int max) {
    Buffer kept = Buffer.buffer();
    response.handler(
        chunk -> kept.appendBuffer(chunk, 0, Math.min(chunk.length(), max - kept.length())));
    return response
        .end()
        .timeout(idleTimeoutMillis, TimeUnit.MILLISECONDS)
        .onFailure(e -> abandon(response.request(), true))
        .map(kept);
  }

  /**
   * Gives up a request so that its connection never goes back to the pool dirty. HTTP/1.1 cancels a
   * request only by closing its connection, and {@code reset()} does that while the response is
   * still coming; but once the response has come in full, {@code reset()} only forgets the request
   * and returns the connection to the pool, and a request whose body was not all sent would go back
   * half-written: the module would read the next request on it as the rest of that body and hang
   * it. Such a connection is closed here (safe: a request not yet ended keeps its connection out of
   * the pool).
   *
   * @param request a request to a module
   * @param sentWhole whether the request has been ended (its body, if any, all written)
   */
  public static void abandon(HttpClientRequest request, boolean sentWhole) {
    if (sentWhole) {
      request.reset();
    } else {
      request.connection().close();
    }
  }

  /**
   * A {@link TimeoutException}: {@code Future.timeout} and a request's idle timeout (Vert.x's
   * {@code NoStackTraceTimeoutException} is one); Netty's {@link ConnectTimeoutException} (the
   * client's connect timeout; a {@link ConnectException} otherwise taken for a refusal); Netty's
   * read and write timeouts. A stream reset or a closed connection is not a timeout.
   */
  private static boolean isTimeout(Throwable failure) {
    return failure instanceof TimeoutException
        || failure instanceof ConnectTimeoutException
        || failure instanceof io.netty.handler.timeout.TimeoutException;
  }

  private static String describe(Throwable failure) {
    if (failure instanceof ConnectException) {
      return "connection refused";
    }
    String message = failure.getMessage();
    return message == null ? failure.getClass().getSimpleName() : message;
  }

  public Future<Void> close() {
    return client.close();
  }

  /** A module instance a request goes to, and the request once opened. */
  public record Target(String moduleId, String baseUrl, HttpClientRequest request) {

    Target(String moduleId, String baseUrl) {
      this(moduleId, baseUrl, null);
    }

    Target with(HttpClientRequest opened) {
      return new Target(moduleId, baseUrl, opened);
    }
  }
}
