package io.okapigw.perf.parallelauth;

import io.okapigw.core.config.AuthParallel;
import io.okapigw.folio.register.GatewayRegistration.Module;
import io.okapigw.perf.kit.launch.BenchModules;
import io.okapigw.perf.kit.launch.BenchUser;
import io.okapigw.perf.kit.launch.Launcher;
import io.okapigw.perf.kit.launch.Logins;
import io.okapigw.perf.kit.load.HttpLoad;
import io.okapigw.perf.kit.load.HttpLoadSpec;
import io.okapigw.perf.kit.probe.GatewayProbe;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Parallel vs sequential auth on cache misses: a fixed module answering after the handler delay,
 * the real authtoken module, and two gateways ({@code auth.parallel} off and safe) with the same
 * registrations. For each client count: the handler alone, the auth filter alone (direct calls, as
 * the gateway makes them), sequential and parallel through the gateways with a new token per
 * request (each a cache miss, checked against the gateway's counters; the token used once before on
 * another route, unmeasured, since parallel auth runs a handler early only for a token the auth
 * module has accepted), and a cache hit. The requests are split into rounds that run every route in
 * turn, so that the background load of a shared machine weighs on every route alike.
 */
public final class ParallelAuthBench {

  /** The tenant and user of the benchmark. */
  public static final BenchUser USER = BenchUser.bench(List.of(Targets.PERMISSION));

  static final int BODY_SIZE = 1024;
  private static final int WARMUP_CLIENTS = 4;
  private static final List<Route> ROUTES = List.of(Route.values());
  private static final Logger log = LoggerFactory.getLogger(ParallelAuthBench.class);

  private final Vertx vertx;
  private final ParallelAuthOptions options;
  private final Targets targets;
  private final Tokens tokens;
  private final GatewayProbe sequentialProbe;
  private final GatewayProbe parallelProbe;

  private ParallelAuthBench(
      Vertx vertx, ParallelAuthOptions options, Targets targets, Tokens tokens) {
    this.vertx = vertx;
    this.options = options;
    this.targets = targets;
    this.tokens = tokens;
    this.sequentialProbe = new GatewayProbe(vertx, targets.sequentialGateway());
    this.parallelProbe = new GatewayProbe(vertx, targets.parallelGateway());
  }

  /**
   * Starts the parts with {@code launcher}, registers them on both gateways, logs in for every
   * token needed, warms up and measures. The caller closes the launcher.
   *
   * @return every run; failed if a part does not start, a login fails or a warm-up errs
   */
  public static Future<ParallelAuthReport> run(
      Vertx vertx, Launcher launcher, ParallelAuthOptions options) {
    Future<String> module = launcher.fixedModule(BODY_SIZE, options.handlerDelay());
    Future<String> authtoken = launcher.authtoken(USER);
    Future<String> off = launcher.gateway(AuthParallel.OFF);
    Future<String> safe = launcher.gateway(AuthParallel.SAFE);
    return Future.all(module, authtoken, off, safe)
        .compose(v -> register(vertx, off.result(), authtoken.result(), module.result()))
        .compose(v -> register(vertx, safe.result(), authtoken.result(), module.result()))
        .compose(v -> logIn(vertx, options, authtoken.result(), safe.result()))
        .map(
            tokens ->
                new ParallelAuthBench(
                    vertx,
                    options,
                    new Targets(module.result(), authtoken.result(), off.result(), safe.result()),
                    tokens))
        .compose(
            bench ->
                bench
                    .measure()
                    .eventually(() -> bench.sequentialProbe.close())
                    .eventually(() -> bench.parallelProbe.close()));
  }

  private static Future<Void> register(
      Vertx vertx, String gateway, String authtoken, String module) {
    return BenchModules.registerWithAuth(
        vertx,
        gateway,
        USER.tenant(),
        authtoken,
        List.of(new Module(Targets.fixedDescriptor(), module)));
  }

  private static Future<Tokens> logIn(
      Vertx vertx, ParallelAuthOptions options, String authtoken, String gateway) {
    log.info("logging in {} times (a new session and token each)", options.tokensNeeded());
    return Logins.many(vertx, authtoken, USER, options.tokensNeeded())
        .compose(unique -> Logins.one(vertx, gateway, USER).map(hit -> new Tokens(unique, hit)));
  }

  private Future<ParallelAuthReport> measure() {
    List<RunResult> results = new ArrayList<>();
    Future<Void> chain = warmUp();
    for (int clients : options.clients()) {
      chain =
          chain
              .compose(v -> measure(clients))
              .map(
                  runs -> {
                    results.addAll(runs);
                    return null;
                  });
    }
    return chain.map(v -> new ParallelAuthReport(options, results));
  }

  /** Every route in rounds, the route order rotated each round; one result per route. */
  private Future<List<RunResult>> measure(int clients) {
    Map<Route, List<RunResult>> rounds = new EnumMap<>(Route.class);
    Future<Void> chain = Future.succeededFuture();
    for (int round = 0; round < options.rounds(); round++) {
      int requests = options.requestsInRound(round);
      int turn = round;
      chain =
          chain.onSuccess(
              v ->
                  log.info(
                      "{} clients, round {} of {}: {} requests per route",
                      clients,
                      turn + 1,
                      options.rounds(),
                      requests));
      for (int i = 0; i < ROUTES.size(); i++) {
        Route route = ROUTES.get((turn + i) % ROUTES.size());
        chain =
            chain
                .compose(v -> run(route, clients, requests))
                .map(
                    r -> {
                      rounds.computeIfAbsent(route, k -> new ArrayList<>()).add(r);
                      return null;
                    });
      }
    }
    return chain.map(
        v -> ROUTES.stream().map(route -> RunResult.combine(rounds.get(route))).toList());
  }

  private Future<Void> warmUp() {
    Future<Void> chain = Future.succeededFuture();
    if (options.warmup() == 0) {
      return chain;
    }
    log.info("warming up: {} requests per route", options.warmup());
    for (Route route : ROUTES) {
      chain =
          chain
              .compose(v -> run(route, WARMUP_CLIENTS, options.warmup()))
              .compose(
                  r ->
                      r.load().errors() == 0
                          ? Future.succeededFuture()
                          : Future.failedFuture(
                              "warm-up "
                                  + route.label()
                                  + ": "
                                  + r.load().errors()
                                  + " of "
                                  + r.load().completed()
                                  + " requests failed, the first: "
                                  + r.load().firstError()));
    }
    return chain;
  }

  private Future<RunResult> run(Route route, int clients, int requests) {
    log.debug("{} clients, {}: {} requests", clients, route.label(), requests);
    List<String> runTokens = route.uniqueTokens() ? tokens.take(requests) : List.of();
    return makeKnown(route, clients, runTokens)
        .compose(v -> measure(route, clients, requests, runTokens));
  }

  /**
   * Through the gateways, each token is used once on another route first, unmeasured: the auth
   * module has then accepted it, which parallel auth needs to run a handler before the decision,
   * and the measured route is still a cache miss (sequential too, so both measure the same).
   */
  private Future<Void> makeKnown(Route route, int clients, List<String> runTokens) {
    if (route != Route.SEQUENTIAL && route != Route.PARALLEL) {
      return Future.succeededFuture();
    }
    HttpLoadSpec spec =
        new HttpLoadSpec(
            clients,
            runTokens.size(),
            options.runTimeLimit(),
            i -> targets.known(route, runTokens.get(i)),
            BODY_SIZE);
    return HttpLoad.run(vertx, spec)
        .compose(
            load ->
                load.errors() == 0
                    ? Future.succeededFuture()
                    : Future.failedFuture(
                        "making tokens known: " + load.errors() + " requests failed"));
  }

  private Future<RunResult> measure(
      Route route, int clients, int requests, List<String> runTokens) {
    HttpLoadSpec spec =
        new HttpLoadSpec(
            clients,
            requests,
            options.runTimeLimit(),
            i -> targets.request(route, route.uniqueTokens() ? runTokens.get(i) : tokens.hit(), i),
            route == Route.AUTH ? -1 : BODY_SIZE);
    GatewayProbe probe =
        route == Route.SEQUENTIAL
            ? sequentialProbe
            : route == Route.PARALLEL || route == Route.HIT ? parallelProbe : null;
    if (probe == null) {
      return HttpLoad.run(vertx, spec).map(load -> new RunResult(clients, route, load, null));
    }
    return probe
        .authCache()
        .compose(
            before ->
                HttpLoad.run(vertx, spec)
                    .compose(
                        load ->
                            probe
                                .authCache()
                                .map(
                                    after ->
                                        new RunResult(clients, route, load, after.minus(before)))));
  }

  /** Unused-token bookkeeping: each unique-token run takes its own slice. */
  private static final class Tokens {
    private final List<String> unique;
    private final String hit;
    private int next;

    Tokens(List<String> unique, String hit) {
      this.unique = unique;
      this.hit = hit;
    }

    synchronized List<String> take(int n) {
      if (next + n > unique.size()) {
        throw new IllegalStateException("out of tokens: " + unique.size() + " logged in");
      }
      List<String> slice = unique.subList(next, next + n);
      next += n;
      return slice;
    }

    String hit() {
      return hit;
    }
  }
}
