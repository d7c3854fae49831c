package io.okapigw.core.upstream;

import io.okapigw.core.routing.Endpoint;
import io.okapigw.core.routing.Instances;
import io.okapigw.core.routing.Stage;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientConnection;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpConnectOptions;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.internal.ContextInternal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The one way the gateway calls a module instance, whatever for ({@link CallKind}): the proxy's
 * handler and filter calls, the auth filter, system calls and health checks. It owns the connection
 * pools (one HTTP client per event loop, made there on first use, so a call and its connection
 * never cross threads), chooses the instance, sets the timeouts, tells the {@link CallObserver} of
 * every call, and maps every failure the same way ({@link CallFailures}). As vertx-http-proxy's
 * {@code OriginRequestProvider}: it opens the request, the caller writes it.
 *
 * <p>One per node, safe to use from any thread; nothing else opens connections to modules.
 */
public final class ModuleClient {

  /** Size of the pieces a body is relayed in (the HTTP decoder's maximum chunk size). */
  public static final int BODY_CHUNK_SIZE = 64 * 1024;

  /** The key of the client for calls made outside any Vert.x context (tests, start-up). */
  private static final Object NO_CONTEXT = new Object();

  private final Vertx vertx;
  private final UpstreamOptions options;
  private final CallObserver observer;
  private final Map<Object, HttpClientAgent> clients = new ConcurrentHashMap<>();

  private ModuleClient(Vertx vertx, UpstreamOptions options, CallObserver observer) {
    this.vertx = vertx;
    this.options = options;
    this.observer = observer;
  }

  /**
   * @param options pools and timeouts ({@code proxy.*} settings)
   * @param observer told of every call
   */
  public static ModuleClient create(Vertx vertx, UpstreamOptions options, CallObserver observer) {
    return new ModuleClient(vertx, options, observer);
  }

  /**
   * Opens a request for one step of a client's request (handler, filter, auth filter) to one of the
   * stage's instances, with the client's path and query as they are; it may stay silent for {@code
   * proxy.idle-timeout}. A {@code HEAD} never reuses its connection: a module may send a body after
   * its answer anyway, which would be read as the answer to the next request sent there.
   *
   * @return the call, its request not yet sent; fails with 502/504 naming the module
   */
  public Future<ModuleCall> open(CallKind kind, Stage stage, HttpMethod method, String uri) {
    return open(kind, stage.instances(), method, uri, false, options.idleTimeout().toMillis());
  }

  /**
   * Opens a request to one of a module's instances at {@code path} under the instance's URL, as
   * Okapi makes system calls.
   *
   * @param timeoutMillis how long the instance may stay silent; 0 for no limit
   * @return the call, its request not yet sent; fails with 502/504 naming the module
   */
  public Future<ModuleCall> open(
      CallKind kind, Instances instances, HttpMethod method, String path, long timeoutMillis) {
    return open(kind, instances, method, path, true, timeoutMillis);
  }

  private Future<ModuleCall> open(
      CallKind kind,
      Instances instances,
      HttpMethod method,
      String uri,
      boolean underInstancePath,
      long timeoutMillis) {
    Endpoint instance = choose(instances);
    ModuleCall call =
        new ModuleCall(this, kind, instances.moduleId(), instance, method, uri, timeoutMillis);
    if (instance == null) {
      observer.failed(call, CallFailures.noInstance(instances.moduleId()));
      return Future.failedFuture(CallFailures.noInstance(instances.moduleId()));
    }
    RequestOptions request =
        new RequestOptions()
            .setMethod(method)
            .setHost(instance.host())
            .setPort(instance.port())
            .setSsl(instance.ssl())
            .setURI(underInstancePath ? instance.path() + uri : uri);
    if (timeoutMillis > 0) {
      request.setIdleTimeout(timeoutMillis);
    }
    boolean head = method == HttpMethod.HEAD;
    if (head) {
      request.putHeader(HttpHeaders.CONNECTION, HttpHeaders.CLOSE);
    }
    return client()
        .request(request)
        .map(opened -> observed(call.opened(opened), head))
        .recover(
            e -> {
              observer.failed(call, e);
              return call.fail(e);
            });
  }

  /**
   * The instance a call goes to: round-robin over the module's instances. Health-aware choice and
   * retries on another instance (ejecting instances that fail) take this place.
   *
   * @return null if the module has no instance
   */
  private static Endpoint choose(Instances instances) {
    return instances.next().orElse(null);
  }

  private ModuleCall observed(ModuleCall call, boolean lastOnConnection) {
    call.quiet(lastOnConnection);
    observer.opened(call);
    call.request()
        .response()
        .onComplete(
            answered -> {
              if (answered.succeeded()) {
                answered.result().exceptionHandler(ModuleCall::debug);
                observer.answered(call, answered.result().statusCode());
              } else {
                observer.failed(call, answered.cause());
              }
            });
    return call;
  }

  /**
   * Okapi's health check of one instance: a {@code GET} of its URL on a connection of its own (not
   * pooled: the check must connect), read to its end and the connection closed. Any HTTP answer is
   * healthy.
   *
   * @param timeout how long connecting and answering may take together
   * @return succeeds if the instance answered; fails with the cause as it happened (a {@link
   *     java.util.concurrent.TimeoutException} past the timeout), not mapped
   */
  public Future<Void> probe(String moduleId, Endpoint instance, Duration timeout) {
    long millis = timeout.toMillis();
    ModuleCall call =
        new ModuleCall(this, CallKind.HEALTH, moduleId, instance, HttpMethod.GET, "/", millis);
    HttpClientConnection[] connection = {null};
    return client()
        .connect(
            new HttpConnectOptions()
                .setHost(instance.host())
                .setPort(instance.port())
                .setSsl(instance.ssl())
                .setConnectTimeout(millis))
        .compose(
            opened -> {
              connection[0] = opened;
              return opened.request(
                  new RequestOptions()
                      .setMethod(HttpMethod.GET)
                      .setHost(instance.host())
                      .setPort(instance.port())
                      .setURI(instance.path().isEmpty() ? "/" : instance.path())
                      .setIdleTimeout(millis)
                      .putHeader(HttpHeaders.CONNECTION, HttpHeaders.CLOSE));
            })
        .compose(request -> observed(call.opened(request), true).request().send())
        .compose(response -> response.end())
        .timeout(millis, TimeUnit.MILLISECONDS)
        .onComplete(
            done -> {
              if (connection[0] != null) {
                connection[0].close();
              }
              if (done.failed() && call.request() == null) {
                observer.failed(call, done.cause());
              }
            });
  }

  /**
   * The client of the calling event loop, made on first use. A client's connections are made on the
   * loop of the call that needs one and reused by any call: one client per loop keeps a call and
   * its connection on one thread.
   */
  private HttpClientAgent client() {
    Context context = Vertx.currentContext();
    Object loop = context == null ? NO_CONTEXT : ((ContextInternal) context).nettyEventLoop();
    HttpClientAgent client = clients.get(loop);
    return client != null ? client : clients.computeIfAbsent(loop, l -> newClient());
  }

  private HttpClientAgent newClient() {
    return vertx.createHttpClient(
        new HttpClientOptions()
            .setKeepAlive(true)
            .setTcpNoDelay(true)
            .setMaxHeaderSize(options.maxHeaderSize())
            // relay bodies in 64 KiB pieces, not Netty's default 8 KiB: 8x fewer writes and flushes
            .setMaxChunkSize(BODY_CHUNK_SIZE)
            .setConnectTimeout((int) options.connectTimeout().toMillis()),
        new PoolOptions().setHttp1MaxSize(options.maxConnectionsPerHost()).setMaxWaitQueueSize(-1));
  }

  Vertx vertx() {
    return vertx;
  }

  /** Closes every client and its connections. */
  public Future<Void> close() {
    List<Future<Void>> closed = new ArrayList<>();
    clients.values().forEach(client -> closed.add(client.close()));
    clients.clear();
    return Future.all(closed).mapEmpty();
  }
}
