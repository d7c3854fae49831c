package io.okapigw.perf.anonymousflood;

import io.okapigw.core.config.AuthParallel;
import io.okapigw.folio.register.GatewayRegistration.Module;
import io.okapigw.perf.kit.launch.BenchModules;
import io.okapigw.perf.kit.launch.BenchUser;
import io.okapigw.perf.kit.launch.Launcher;
import io.okapigw.perf.kit.launch.Logins;
import io.okapigw.perf.kit.load.HttpLoad;
import io.okapigw.perf.kit.load.HttpLoadResult;
import io.okapigw.perf.kit.load.HttpLoadSpec;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A signed-in tenant's users next to a tokenless flood of the same tenant: a fixed module behind
 * the real authtoken module and a gateway whose tenant has {@code bulkhead.max-in-flight} above the
 * users' clients and below the flood's. The users' requests are measured alone and while the flood
 * runs, in alternating rounds, so that a change in the machine's load weighs on both phases alike;
 * every flood request is refused by the auth module (no token).
 */
public final class AnonymousFloodBench {

  /** The tenant and user of the benchmark. */
  public static final BenchUser USER = BenchUser.bench(List.of("fixed.get"));

  static final int BODY_SIZE = 1024;
  private static final String PATH = "/fixed";
  private static final Logger log = LoggerFactory.getLogger(AnonymousFloodBench.class);

  private final Vertx vertx;
  private final AnonymousFloodOptions options;
  private final String gateway;
  private final String token;

  private AnonymousFloodBench(
      Vertx vertx, AnonymousFloodOptions options, String gateway, String token) {
    this.vertx = vertx;
    this.options = options;
    this.gateway = gateway;
    this.token = token;
  }

  /**
   * Starts the parts with {@code launcher}, registers them, logs the user in, warms up and
   * measures. The caller closes the launcher.
   *
   * @return the two phases; failed if a part does not start, the login fails or a warm-up errs
   */
  public static Future<AnonymousFloodReport> run(
      Vertx vertx, Launcher launcher, AnonymousFloodOptions options) {
    Future<String> module = launcher.fixedModule(BODY_SIZE, options.handlerDelay());
    Future<String> authtoken = launcher.authtoken(USER);
    Future<String> gateway =
        launcher.gateway(
            AuthParallel.OFF,
            Map.of(
                "bulkhead.max-in-flight",
                Integer.toString(options.maxInFlight()),
                "auth.cache.negative-ttl",
                options.negativeTtl().toMillis() + "ms"));
    return Future.all(module, authtoken, gateway)
        .compose(
            v ->
                BenchModules.registerWithAuth(
                    vertx,
                    gateway.result(),
                    USER.tenant(),
                    authtoken.result(),
                    List.of(new Module(descriptor(), module.result()))))
        .compose(v -> Logins.one(vertx, gateway.result(), USER))
        .map(token -> new AnonymousFloodBench(vertx, options, gateway.result(), token))
        .compose(AnonymousFloodBench::measure);
  }

  private static JsonObject descriptor() {
    return new JsonObject(
        """
        {"id": "mod-fixed-1.0.0", "provides": [{"id": "fixed", "version": "1.0", "handlers": [
          {"methods": ["GET"], "pathPattern": "%s", "permissionsRequired": ["fixed.get"]}]}]}
        """
            .formatted(PATH));
  }

  private Future<AnonymousFloodReport> measure() {
    List<HttpLoadResult> alone = new ArrayList<>();
    List<HttpLoadResult> users = new ArrayList<>();
    List<HttpLoadResult> flood = new ArrayList<>();
    Future<Void> chain = warmUp();
    for (int round = 0; round < options.rounds(); round++) {
      int requests = options.requestsInRound(round);
      boolean floodFirst = round % 2 == 1;
      int turn = round;
      chain = chain.onSuccess(v -> log.info("round {} of {}", turn + 1, options.rounds()));
      for (int phase = 0; phase < 2; phase++) {
        boolean flooded = (phase == 0) == floodFirst;
        chain =
            chain.compose(
                v ->
                    flooded
                        ? flooded(requests)
                            .map(
                                both -> {
                                  users.add(both.get(0));
                                  flood.add(both.get(1));
                                  return null;
                                })
                        : users(requests)
                            .map(
                                r -> {
                                  alone.add(r);
                                  return null;
                                }));
      }
    }
    return chain.map(
        v ->
            new AnonymousFloodReport(
                options,
                HttpLoadResult.combine(alone),
                HttpLoadResult.combine(users),
                HttpLoadResult.combine(flood)));
  }

  private Future<Void> warmUp() {
    if (options.warmup() == 0) {
      return Future.succeededFuture();
    }
    return users(options.warmup())
        .compose(
            r ->
                r.errors() == 0
                    ? Future.succeededFuture()
                    : Future.failedFuture("warm-up: " + r.errors() + " errors, " + r.firstError()));
  }

  private Future<HttpLoadResult> users(int requests) {
    return HttpLoad.run(vertx, spec(options.clients(), requests, token));
  }

  /**
   * @return the users' run and the flood's, the flood started first and stopped when the users'
   *     requests are done
   */
  private Future<List<HttpLoadResult>> flooded(int requests) {
    Promise<Void> usersDone = Promise.promise();
    Future<HttpLoadResult> flood =
        HttpLoad.runUntil(
            vertx, spec(options.floodClients(), Integer.MAX_VALUE, null), usersDone.future());
    return users(requests)
        .onComplete(r -> usersDone.tryComplete())
        .compose(u -> flood.map(f -> List.of(u, f)));
  }

  private HttpLoadSpec spec(int clients, int requests, String withToken) {
    return new HttpLoadSpec(
        clients,
        requests,
        options.runTimeLimit(),
        i -> request(withToken),
        withToken == null ? -1 : BODY_SIZE);
  }

  private RequestOptions request(String withToken) {
    RequestOptions request =
        new RequestOptions()
            .setMethod(HttpMethod.GET)
            .setAbsoluteURI(gateway + PATH)
            .putHeader("X-Okapi-Tenant", USER.tenant());
    return withToken == null ? request : request.putHeader("X-Okapi-Token", withToken);
  }
}
