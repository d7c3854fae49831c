package io.okapigw.core.upstream;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.channel.EventLoop;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.util.concurrent.EventExecutor;
import io.okapigw.core.http.FailureLog;
import io.okapigw.core.http.HttpError;
import io.okapigw.core.routing.Endpoint;
import io.okapigw.core.routing.Instances;
import io.okapigw.core.routing.Stage;
import io.okapigw.core.upstream.ModuleCall.Target;
import io.okapigw.core.upstream.balance.Balancer;
import io.okapigw.core.upstream.balance.Pick;
import io.okapigw.core.upstream.balance.Pick.Outcome;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.VertxInternal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;
import org.slf4j.LoggerFactory;

/**
 * The one way the gateway calls a module instance, whatever for ({@link CallKind}): the proxy's
 * handler and filter calls, the auth filter, system calls and health checks. It owns the connection
 * pools: Netty channels on the caller's event loop ({@link LoopConnections}, one per loop, made
 * there on first use), pooled per instance and loop ({@link ConnectionPool}), so that a call, its
 * connection and the client connection it serves never cross threads. It chooses the instance
 * ({@link Balancer}: health-aware, least calls in flight) and sends a call that never reached one
 * to another, or one broken before its answer when that is safe ({@link #reopen}), sets the
 * timeouts, tells the {@link CallObserver} of every call, and maps every failure the same way
 * ({@link CallFailures}). As vertx-http-proxy's {@code OriginRequestProvider}: it opens the
 * request, the caller writes it.
 *
 * <p>One per node, safe to use from any thread; nothing else opens connections to modules.
 */
public final class ModuleClient {

  /** Size of the pieces a body is relayed in (the HTTP decoders' maximum chunk size). */
  public static final int BODY_CHUNK_SIZE = 64 * 1024;

  private final VertxInternal vertx;
  private final UpstreamOptions options;
  private final CallObserver observer;
  private final Balancer balancer;
  private final ActiveChecks checks;
  private final Map<EventLoop, LoopConnections> loops = new ConcurrentHashMap<>();
  private volatile SslContext ssl;

  /** Where connections closed for their framing are told ({@link StrictClientCodec}). */
  private final FailureLog framing =
      FailureLog.create(
          LoggerFactory.getLogger(StrictClientCodec.class),
          FailureLog.DEFAULT_LINES,
          FailureLog.DEFAULT_INTERVAL,
          System::nanoTime);

  private ModuleClient(
      Vertx vertx, UpstreamOptions options, CallObserver observer, Balancer balancer) {
    this.vertx = (VertxInternal) vertx;
    this.options = options;
    this.observer = observer;
    this.balancer = balancer;
    this.checks = ActiveChecks.start(vertx, this, balancer.options());
  }

  /**
   * A client whose balancer runs on the system clock and counts in a registry of its own.
   *
   * @param options pools, timeouts, instance choice and retries ({@code proxy.*} settings)
   * @param observer told of every call
   */
  public static ModuleClient create(Vertx vertx, UpstreamOptions options, CallObserver observer) {
    return create(
        vertx,
        options,
        observer,
        Balancer.create(options.balance(), System::nanoTime, new SimpleMeterRegistry()));
  }

  /**
   * @param options pools and timeouts ({@code proxy.*} settings)
   * @param observer told of every call
   * @param balancer chooses the instances and learns from every call (its own settings)
   */
  public static ModuleClient create(
      Vertx vertx, UpstreamOptions options, CallObserver observer, Balancer balancer) {
    return new ModuleClient(vertx, options, observer, balancer);
  }

  /**
   * @return what chooses the instances, and what it has learned of them
   */
  public Balancer balancer() {
    return balancer;
  }

  /**
   * Opens a request for one step of a client's request (handler, filter, auth filter) to one of the
   * stage's instances, with the client's path and query as they are; it may stay silent for the
   * module's {@code proxy.module-timeout}, else {@code proxy.idle-timeout}. A {@code HEAD} never
   * reuses its connection: a module may send a body after its answer anyway, which would be read as
   * the answer to the next request sent there.
   *
   * @return the call, its request not yet sent; fails with 502/504 naming the module
   */
  public Future<ModuleCall> open(CallKind kind, Stage stage, HttpMethod method, String uri) {
    return open(
        kind, stage, method, uri, options.callTimeout(stage.instances().moduleId()).toMillis());
  }

  /**
   * As {@link #open(CallKind, Stage, HttpMethod, String)}, with a timeout of the caller's (the auth
   * filter's {@code auth.timeout}).
   *
   * @param timeoutMillis how long the instance may stay silent; 0 for no limit
   */
  public Future<ModuleCall> open(
      CallKind kind, Stage stage, HttpMethod method, String uri, long timeoutMillis) {
    return open(kind, stage.instances(), method, uri, false, timeoutMillis);
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
    Target target = new Target(kind, instances, method, uri, underInstancePath, timeoutMillis);
    return open(target, List.of(), false, false);
  }

  /**
   * Opens the call on an instance chosen by the {@link Balancer}; one that cannot be reached (no
   * connection: refused, connect timeout) never got the request, so it goes to another instance
   * whatever its method, each tried once. That is not charged to the retry budget: the request
   * reached no module, so sending it on adds no load to any (the budget keeps retries from
   * multiplying a struggling module's load). Charged, a dead instance's refusals, which come back
   * at once and so make it look the least busy, would use up the budget within a few concurrent
   * calls and fail the rest.
   */
  private Future<ModuleCall> open(
      Target target, List<Endpoint> tried, boolean retry, boolean resent) {
    String moduleId = target.instances().moduleId();
    Pick pick = balancer.choose(target.instances(), tried, retry);
    ModuleCall call = new ModuleCall(this, target, moduleId, pick, null, tried, resent);
    if (pick == null) {
      observer.failed(call, CallFailures.noInstance(moduleId));
      return Future.failedFuture(CallFailures.noInstance(moduleId));
    }
    ContextInternal caller = ContextInternal.current();
    LoopConnections loop = loop(caller);
    Origin origin = Origin.of(pick.endpoint());
    // the caller's code after the opening runs on its context, where its request's trace is
    Promise<ModuleConnection> acquired = caller == null ? Promise.promise() : caller.promise();
    onLoop(loop, () -> loop.acquire(origin, acquired));
    if (caller != null && acquired.future().succeeded()) {
      // a pooled connection of the caller's own loop, handed at once: no chain to wait through
      return caller.succeededFuture(observed(call.opened(acquired.future().result(), caller)));
    }
    return acquired
        .future()
        .transform(
            done -> {
              if (done.succeeded()) {
                return Future.succeededFuture(observed(call.opened(done.result(), caller)));
              }
              failed(call, done.cause());
              return sendAgain(call, done.cause(), call.resent(), false);
            })
        .transform(done -> onCaller(caller, done));
  }

  /**
   * Opens a call again on another instance of its module after its connection broke before any
   * answer came, if that is safe: the method is idempotent (GET, HEAD, OPTIONS; PUT and DELETE with
   * {@code proxy.retry.put-delete}), the failure is a broken connection or the module's own {@code
   * proxy.module-timeout} (not {@code proxy.idle-timeout}, not an answer that breaks HTTP), the
   * request was not sent again before, another instance is left and the module's retry budget
   * allows it. The caller must know that no byte of the request's body was sent (it has none) and
   * no byte of the answer reached its client.
   *
   * @param call the call that failed, given up
   * @return the new call, its request not yet sent; else fails with {@code failure} mapped ({@link
   *     ModuleCall#fail})
   */
  public Future<ModuleCall> reopen(ModuleCall call, Throwable failure) {
    if (call.resent()
        || !idempotent(call.target().method())
        || failure instanceof HttpError
        || failure instanceof CallFailures.BadAnswer
        || CallFailures.isTimeout(failure) && !ownTimeout(call)) {
      return call.fail(failure);
    }
    return sendAgain(call, failure, true, true);
  }

  /** Whether the call timed out at its module's own {@code proxy.module-timeout}. */
  private boolean ownTimeout(ModuleCall call) {
    return call.kind() != CallKind.SYSTEM
        && call.kind() != CallKind.HEALTH
        && options.moduleTimeout(call.moduleId()) != null;
  }

  /**
   * Sends a failed call to an instance it has not tried, if one is left.
   *
   * @param charged whether it takes a retry from the module's budget (the call reached an
   *     instance), else it is only counted
   */
  private Future<ModuleCall> sendAgain(
      ModuleCall call, Throwable failure, boolean resent, boolean charged) {
    Instances instances = call.target().instances();
    if (call.tried().size() >= instances.endpoints().size()) {
      return call.fail(failure);
    }
    if (!charged) {
      balancer.sentElsewhere(instances.moduleId());
    } else if (!balancer.takeRetry(instances.moduleId())) {
      return call.fail(failure);
    }
    return open(call.target(), call.tried(), charged, resent);
  }

  private boolean idempotent(HttpMethod method) {
    return method == HttpMethod.GET
        || method == HttpMethod.HEAD
        || method == HttpMethod.OPTIONS
        || balancer.options().retryPutDelete()
            && (method == HttpMethod.PUT || method == HttpMethod.DELETE);
  }

  private ModuleCall observed(ModuleCall call) {
    observer.opened(call);
    return call;
  }

  /** The call's final answer's head came. */
  void answered(ModuleCall call, int status) {
    observer.answered(call, status);
    if (call.pick() != null) {
      call.pick().done(status >= 500 ? Outcome.SERVER_ERROR : Outcome.SUCCEEDED);
    }
  }

  /** A connection the call had read bytes that answer no request: its instance broke HTTP. */
  void brokeProtocol(ModuleCall call, String what) {
    if (call.instance() != null) {
      balancer.brokeProtocol(call.moduleId(), call.instance(), what);
    }
  }

  /** The call failed before its final answer's head came. */
  void failed(ModuleCall call, Throwable failure) {
    observer.failed(call, failure);
    if (call.pick() != null) {
      // a call the gateway gave up (its client left) counts only after a long wait
      call.pick().done(call.abandoned() ? Outcome.ABANDONED : Outcome.FAILED);
    }
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
    Target target =
        new Target(
            CallKind.HEALTH,
            Instances.of(moduleId, List.of(instance.url())),
            HttpMethod.GET,
            "",
            true,
            millis);
    ModuleCall call = new ModuleCall(this, target, moduleId, null, instance, List.of(), false);
    ContextInternal caller = ContextInternal.current();
    LoopConnections loop = loop(caller);
    Promise<ModuleConnection> connected = caller == null ? Promise.promise() : caller.promise();
    onLoop(loop, () -> loop.connectOwn(Origin.of(instance), millis).onComplete(connected));
    return connected
        .future()
        .compose(
            connection -> {
              observed(call.opened(connection, caller));
              call.headers().set(HttpHeaders.CONNECTION, HttpHeaders.CLOSE);
              return call.exchange(null, status -> 0);
            },
            e -> {
              observer.failed(call, e);
              return Future.failedFuture(e);
            })
        .<Void>mapEmpty()
        .timeout(millis, TimeUnit.MILLISECONDS)
        .andThen(
            done -> {
              call.abandon();
              balancer.checked(moduleId, instance, done.succeeded());
            });
  }

  /**
   * The connections of the caller's event loop: its context's, else the loop the calling thread is,
   * else (a call from outside Vert.x: tests, start-up) the next loop of Vert.x's.
   */
  private LoopConnections loop(ContextInternal caller) {
    EventLoop loop = caller != null ? caller.nettyEventLoop() : currentLoop();
    LoopConnections connections = loops.get(loop);
    return connections != null
        ? connections
        : loops.computeIfAbsent(
            loop, l -> new LoopConnections(vertx, l, options, framing, this::sslContext));
  }

  private EventLoop currentLoop() {
    for (EventExecutor executor : vertx.nettyEventLoopGroup()) {
      if (executor.inEventLoop()) {
        return (EventLoop) executor;
      }
    }
    return vertx.nettyEventLoopGroup().next();
  }

  private static void onLoop(LoopConnections loop, Runnable action) {
    if (loop.loop().inEventLoop()) {
      action.run();
    } else {
      loop.loop().execute(action);
    }
  }

  /**
   * @return {@code done} as a future of the caller's context, so that the caller's code runs there
   *     (at once when the caller is on this thread), or as it is if the caller has none
   */
  private static <T> Future<T> onCaller(ContextInternal caller, io.vertx.core.AsyncResult<T> done) {
    if (caller == null) {
      return done.succeeded()
          ? Future.succeededFuture(done.result())
          : Future.failedFuture(done.cause());
    }
    return done.succeeded()
        ? caller.succeededFuture(done.result())
        : caller.failedFuture(done.cause());
  }

  /** The TLS context of module connections over https (the JDK's trust store), made once. */
  private SslContext sslContext() {
    SslContext context = ssl;
    if (context == null) {
      synchronized (this) {
        if (ssl == null) {
          try {
            ssl = SslContextBuilder.forClient().build();
          } catch (SSLException e) {
            throw new IllegalStateException("cannot make the TLS context of module connections", e);
          }
        }
        context = ssl;
      }
    }
    return context;
  }

  /**
   * @return the active checks ({@code proxy.outlier.check-interval})
   */
  ActiveChecks checks() {
    return checks;
  }

  /** Closes the idle connections of every loop; those in use close as their calls end. */
  public Future<Void> close() {
    checks.stop();
    List<Future<Void>> closed = new ArrayList<>();
    for (LoopConnections loop : loops.values()) {
      Promise<Void> done = Promise.promise();
      loop.loop()
          .execute(
              () -> {
                loop.closeIdle();
                done.complete();
              });
      closed.add(done.future());
    }
    loops.clear();
    return Future.all(closed).mapEmpty();
  }
}
