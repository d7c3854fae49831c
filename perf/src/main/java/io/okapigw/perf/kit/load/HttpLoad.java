package io.okapigw.perf.kit.load;

import io.okapigw.perf.kit.latency.Latencies;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.PoolOptions;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The benchmarks' HTTP load client (the check-out/check-in workload is {@code perf.load}'s): {@link
 * HttpLoadSpec#activeClients()} loops, each sending one request, reading and discarding the whole
 * body, then sending the next, until {@link HttpLoadSpec#requests()} are done or the time limit
 * cuts the run (requests in flight then are dropped, not counted). Its own HTTP client with one
 * pooled keep-alive connection per loop, spread over as many event loops as there are cores.
 *
 * <p>TTFB = request start to response headers; duration = request start to the last body byte.
 */
public final class HttpLoad {

  private static final int CONNECT_TIMEOUT_MILLIS = 5_000;

  /** Connections are spread over this many event loops (like wrk's threads). */
  private static final int CLIENT_EVENT_LOOPS = Runtime.getRuntime().availableProcessors();

  private final Vertx vertx;
  private final HttpLoadSpec spec;
  private final HttpClientAgent client;
  private final Latencies ttfb;
  private final Latencies duration;
  private final AtomicInteger next = new AtomicInteger();
  private final AtomicInteger completed = new AtomicInteger();
  private final AtomicInteger errors = new AtomicInteger();
  private final AtomicLong bytes = new AtomicLong();
  private final AtomicLong lastEnd = new AtomicLong();
  private final AtomicInteger running = new AtomicInteger();
  private final AtomicBoolean cut = new AtomicBoolean();
  private final Promise<HttpLoadResult> done = Promise.promise();
  private volatile String firstError;
  private long start;

  private HttpLoad(Vertx vertx, HttpLoadSpec spec) {
    this.vertx = vertx;
    this.spec = spec;
    this.client =
        vertx.createHttpClient(
            new HttpClientOptions().setKeepAlive(true).setConnectTimeout(CONNECT_TIMEOUT_MILLIS),
            new PoolOptions()
                .setHttp1MaxSize(spec.activeClients())
                .setEventLoopSize(Math.min(spec.activeClients(), CLIENT_EVENT_LOOPS)));
    this.ttfb = new Latencies();
    this.duration = new Latencies();
  }

  /**
   * Runs the load; never fails (failed requests are counted in {@link HttpLoadResult#errors()}).
   *
   * @return the measurements once every client has stopped
   */
  public static Future<HttpLoadResult> run(Vertx vertx, HttpLoadSpec spec) {
    return new HttpLoad(vertx, spec).start();
  }

  /**
   * Runs the load until {@code until} completes, its requests are done or its time limit passes,
   * whichever comes first: a background load for as long as another runs. Never fails.
   *
   * @return the measurements once every client has stopped
   */
  public static Future<HttpLoadResult> runUntil(Vertx vertx, HttpLoadSpec spec, Future<?> until) {
    HttpLoad load = new HttpLoad(vertx, spec);
    Future<HttpLoadResult> result = load.start();
    until.onComplete(v -> load.stop());
    return result;
  }

  private Future<HttpLoadResult> start() {
    start = System.nanoTime();
    lastEnd.set(start);
    long limit = vertx.setTimer(spec.timeLimit().toMillis(), id -> stop());
    running.set(spec.activeClients());
    // start the clients on a Vert.x context: a request chain built on a plain thread can see its
    // response complete before the body handler is attached, and lose the body
    vertx
        .getOrCreateContext()
        .runOnContext(
            v -> {
              for (int i = 0; i < spec.activeClients(); i++) {
                nextRequest();
              }
            });
    return done.future().onComplete(r -> vertx.cancelTimer(limit)).eventually(client::close);
  }

  private void stop() {
    cut.set(true);
    client.close(); // fails the requests in flight; their loops then stop
  }

  private void nextRequest() {
    int i = next.getAndIncrement();
    if (i >= spec.requests() || cut.get()) {
      if (running.decrementAndGet() == 0) {
        done.tryComplete(result());
      }
      return;
    }
    long begin = System.nanoTime();
    client
        .request(spec.request().apply(i))
        .compose(HttpClientRequest::send)
        .compose(response -> readBody(response, System.nanoTime() - begin))
        .onComplete(
            ar -> {
              if (!cut.get()) {
                record(ar, begin);
              }
              nextRequest();
            });
  }

  /**
   * @return the TTFB once the whole body is read; failed for a non-2xx or short answer
   */
  private Future<Long> readBody(HttpClientResponse response, long ttfbNanos) {
    AtomicLong received = new AtomicLong();
    response.handler(chunk -> received.addAndGet(chunk.length()));
    return response
        .end()
        .compose(
            v -> {
              bytes.addAndGet(received.get());
              if (response.statusCode() / 100 != 2) {
                return Future.failedFuture("status " + response.statusCode());
              }
              if (spec.expectedBytes() >= 0 && received.get() != spec.expectedBytes()) {
                return Future.failedFuture(
                    "body of " + received.get() + " bytes, expected " + spec.expectedBytes());
              }
              return Future.succeededFuture(ttfbNanos);
            });
  }

  private void record(AsyncResult<Long> outcome, long begin) {
    long end = System.nanoTime();
    lastEnd.accumulateAndGet(end, Math::max);
    completed.incrementAndGet();
    if (outcome.succeeded()) {
      ttfb.record(outcome.result());
      duration.record(end - begin);
    } else if (errors.getAndIncrement() == 0) {
      Throwable cause = outcome.cause();
      firstError = cause.getMessage() != null ? cause.getMessage() : cause.toString();
    }
  }

  private HttpLoadResult result() {
    long end = cut.get() ? System.nanoTime() : lastEnd.get();
    return new HttpLoadResult(
        completed.get(),
        errors.get(),
        firstError,
        end - start,
        bytes.get(),
        ttfb,
        duration,
        cut.get());
  }
}
