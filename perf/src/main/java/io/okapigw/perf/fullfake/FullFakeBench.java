package io.okapigw.perf.fullfake;

import io.okapigw.config.Sizes;
import io.okapigw.core.config.AuthParallel;
import io.okapigw.folio.register.GatewayRegistration.Module;
import io.okapigw.perf.fullfake.CellResult.Heap;
import io.okapigw.perf.kit.launch.BenchModules;
import io.okapigw.perf.kit.launch.BenchUser;
import io.okapigw.perf.kit.launch.Launcher;
import io.okapigw.perf.kit.launch.Logins;
import io.okapigw.perf.kit.load.HttpLoad;
import io.okapigw.perf.kit.load.HttpLoadResult;
import io.okapigw.perf.kit.load.HttpLoadSpec;
import io.okapigw.perf.kit.modules.FakeBodyModule;
import io.okapigw.perf.kit.probe.GatewayProbe;
import io.okapigw.perf.kit.probe.HeapSampler;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The full-fake matrix: a {@link FakeBodyModule}, the authtoken module and a gateway (tenant with
 * the auth filter, the route requiring a permission the user has, one token: every measured request
 * is an auth cache hit). Each (clients, size) cell runs direct, then through the gateway, back to
 * back; for bodies of {@value #HEAP_SAMPLED_FROM_MB} MB and more the gateway's heap is sampled
 * meanwhile.
 */
public final class FullFakeBench {

  /** The tenant and user of the benchmark. */
  public static final BenchUser USER = BenchUser.bench(List.of(FakeBodyModule.PERMISSION));

  static final int HEAP_SAMPLED_FROM_MB = 1;
  private static final long HEAP_SAMPLED_FROM = HEAP_SAMPLED_FROM_MB * Sizes.MB;
  private static final Duration HEAP_PERIOD = Duration.ofMillis(100);
  private static final long REQUEST_IDLE_TIMEOUT_MILLIS = 30_000;
  private static final Logger log = LoggerFactory.getLogger(FullFakeBench.class);

  private final Vertx vertx;
  private final FullFakeOptions options;
  private final String moduleUrl;
  private final String gatewayUrl;
  private final String token;
  private final GatewayProbe probe;

  private FullFakeBench(
      Vertx vertx, FullFakeOptions options, String moduleUrl, String gatewayUrl, String token) {
    this.vertx = vertx;
    this.options = options;
    this.moduleUrl = moduleUrl;
    this.gatewayUrl = gatewayUrl;
    this.token = token;
    this.probe = new GatewayProbe(vertx, gatewayUrl);
  }

  /**
   * Starts the parts with {@code launcher}, registers them, logs in, warms up and runs every cell.
   * The caller closes the launcher.
   *
   * @return the matrix; failed if a part does not start or the login fails
   */
  public static Future<FullFakeReport> run(
      Vertx vertx, Launcher launcher, FullFakeOptions options) {
    Future<String> module = launcher.fakeModule();
    Future<String> authtoken = launcher.authtoken(USER);
    Future<String> gateway = launcher.gateway(AuthParallel.OFF);
    return Future.all(module, authtoken, gateway)
        .compose(
            v ->
                BenchModules.registerWithAuth(
                    vertx,
                    gateway.result(),
                    USER.tenant(),
                    authtoken.result(),
                    List.of(new Module(FakeBodyModule.descriptor(), module.result()))))
        .compose(v -> Logins.one(vertx, gateway.result(), USER))
        .map(token -> new FullFakeBench(vertx, options, module.result(), gateway.result(), token))
        .compose(bench -> bench.measure().eventually(bench.probe::close));
  }

  private Future<FullFakeReport> measure() {
    List<CellResult> cells = new ArrayList<>();
    Future<GatewayProbe.CacheCounters> before = warmUp().compose(v -> probe.authCache());
    Future<Void> chain = before.mapEmpty();
    for (int clients : options.clients()) {
      for (long size : options.sizes()) {
        chain =
            chain
                .compose(v -> cell(clients, size))
                .map(
                    cell -> {
                      cells.add(cell);
                      return null;
                    });
      }
    }
    return chain
        .compose(v -> probe.authCache())
        .map(after -> new FullFakeReport(options, cells, after.minus(before.result()).authCalls()));
  }

  private Future<Void> warmUp() {
    if (options.warmup() == 0) {
      return Future.succeededFuture();
    }
    log.info("warming up: {} requests per route", options.warmup());
    int small = options.warmup();
    int large = Math.min(options.warmup(), 256);
    return warm("direct", spec(() -> direct(Sizes.KB), 10, small, Sizes.KB))
        .compose(v -> warm("gateway", spec(() -> viaGateway(Sizes.KB), 10, small, Sizes.KB)))
        .compose(v -> warm("direct", spec(() -> direct(Sizes.MB), 4, large, Sizes.MB)))
        .compose(v -> warm("gateway", spec(() -> viaGateway(Sizes.MB), 4, large, Sizes.MB)));
  }

  /** A warm-up run; any error stops the benchmark (something is misconfigured). */
  private Future<Void> warm(String route, HttpLoadSpec spec) {
    return HttpLoad.run(vertx, spec)
        .compose(
            r ->
                r.errors() == 0
                    ? Future.succeededFuture()
                    : Future.failedFuture(
                        "warm-up "
                            + route
                            + ": "
                            + r.errors()
                            + " of "
                            + r.completed()
                            + " requests failed, the first: "
                            + r.firstError()));
  }

  private Future<CellResult> cell(int clients, long size) {
    int requests = options.requestsFor(size);
    log.info(
        "cell: {} clients, {} bodies, {} requests per route",
        clients,
        Sizes.format(size),
        requests);
    return HttpLoad.run(vertx, spec(() -> direct(size), clients, requests, size))
        .compose(
            direct ->
                gatewayRun(clients, size, requests)
                    .map(
                        gateway ->
                            new CellResult(
                                clients,
                                size,
                                requests,
                                direct,
                                gateway.result(),
                                gateway.heap(),
                                gateway.cpuNanos())));
  }

  private record GatewayRun(HttpLoadResult result, Heap heap, long cpuNanos) {}

  /** The gateway run, between two metrics reads; the heap sampled meanwhile for big bodies. */
  private Future<GatewayRun> gatewayRun(int clients, long size, int requests) {
    HttpLoadSpec spec = spec(() -> viaGateway(size), clients, requests, size);
    boolean sampled = size >= HEAP_SAMPLED_FROM;
    URI metrics = sampled ? URI.create(gatewayUrl + "/_/metrics") : null;
    return metricsNow()
        .compose(
            before -> {
              HeapSampler sampler = HeapSampler.start(metrics, HEAP_PERIOD);
              return HttpLoad.run(vertx, spec)
                  .compose(result -> stop(sampler).map(result))
                  .compose(
                      result -> metricsNow().map(after -> run(result, before, after, sampler)));
            });
  }

  private Future<Void> stop(HeapSampler sampler) {
    return vertx.executeBlocking(
        () -> {
          sampler.close();
          return null;
        },
        false);
  }

  private GatewayRun run(
      HttpLoadResult result,
      GatewayProbe.Metrics before,
      GatewayProbe.Metrics after,
      HeapSampler sampler) {
    Heap heap =
        sampler.sampling()
            ? new Heap(before.heapUsed(), sampler.largest(), after.heapUsed())
            : null;
    long cpu =
        before.cpuNanos() < 0 || after.cpuNanos() < 0 ? -1 : after.cpuNanos() - before.cpuNanos();
    return new GatewayRun(result, heap, cpu);
  }

  private Future<GatewayProbe.Metrics> metricsNow() {
    return probe.metrics().otherwise(GatewayProbe.Metrics.UNKNOWN);
  }

  private HttpLoadSpec spec(
      Supplier<RequestOptions> request, int clients, int requests, long size) {
    return new HttpLoadSpec(clients, requests, options.cellTimeLimit(), i -> request.get(), size);
  }

  private RequestOptions direct(long size) {
    return new RequestOptions()
        .setMethod(HttpMethod.GET)
        .setAbsoluteURI(moduleUrl + FakeBodyModule.path(size))
        .setIdleTimeout(REQUEST_IDLE_TIMEOUT_MILLIS);
  }

  private RequestOptions viaGateway(long size) {
    return new RequestOptions()
        .setMethod(HttpMethod.GET)
        .setAbsoluteURI(gatewayUrl + FakeBodyModule.path(size))
        .setIdleTimeout(REQUEST_IDLE_TIMEOUT_MILLIS)
        .putHeader("X-Okapi-Tenant", USER.tenant())
        .putHeader("X-Okapi-Token", token);
  }
}
