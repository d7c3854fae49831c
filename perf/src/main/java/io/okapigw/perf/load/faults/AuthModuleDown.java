package io.okapigw.perf.load.faults;

import io.okapigw.demo.DemoOptions;
import io.okapigw.demo.Library;
import io.okapigw.folio.register.SuperAdmin;
import io.okapigw.perf.load.BarcodeRows;
import io.okapigw.perf.load.LoadDriver;
import io.okapigw.perf.load.PhaseFigures;
import io.okapigw.testsupport.process.StandaloneGateway;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code auth-module}: our gateway with short-lived cached decisions ({@code auth.cache.ttl}
 * {@value #TTL}) and {@code auth.cache.stale-if-error}, the authtoken module in a JVM of its own,
 * the users working. A phase with the auth module healthy; the next with it frozen (SIGSTOP: a hung
 * module, its sockets open, nothing answered); the next let go (SIGCONT); the last with it killed
 * (kill -9: a dead module, connections refused). Each expired decision asks the auth module again,
 * so the hung and dead phases show what {@code auth.timeout} and the breaker ({@code
 * auth.breaker.*}, settable through {@code gateway-args}) cost against the healthy phase.
 */
final class AuthModuleDown {

  static final String ABOUT =
      "`auth-module`: the authtoken module (a JVM of its own) healthy, frozen (SIGSTOP), let go,"
          + " then killed, behind a gateway with `auth.cache.ttl` "
          + AuthModuleDown.TTL
          + " and `auth.cache.stale-if-error`: throughput hung and dead against healthy";

  static final String TTL = "2s";
  private static final String STALE_IF_ERROR = "10m";

  private static final HttpClient HTTP = LoopbackHttp.CLIENT;

  private AuthModuleDown() {}

  static FaultReport run(Stage stage) throws Exception {
    FaultsOptions o = stage.options;
    List<String> args =
        new ArrayList<>(
            List.of("--auth.cache.ttl", TTL, "--auth.cache.stale-if-error", STALE_IF_ERROR));
    args.addAll(o.gatewayArgs());
    try (StandaloneGateway gateway = StandaloneGateway.start(o.gatewayJar(), args);
        AuthtokenJvm authtoken =
            AuthtokenJvm.start(
                stage,
                "authtoken",
                "json:" + stage.dir.resolve("authtoken-store"),
                gateway.url(),
                List.of())) {
      Library library = stage.library(gateway.url(), authtoken.url());
      LoadDriver driver =
          stage.driver(
              gateway.url(),
              DemoOptions.TENANT,
              o.users(),
              o.warmup(),
              BarcodeRows.of(library.data()));
      Stale stale = new Stale(gateway.url(), stage.superAdminToken(gateway.url()));
      long[] served = new long[5];
      served[0] = stale.served();
      PhaseFigures healthy = stage.join(() -> driver.phase(o.phase()));
      served[1] = stale.served();
      authtoken.process().pause();
      PhaseFigures hung;
      try {
        hung = stage.join(() -> driver.phase(o.phase()));
        served[2] = stale.served();
      } finally {
        authtoken.process().resume();
      }
      PhaseFigures back = stage.join(() -> driver.phase(o.phase()));
      served[3] = stale.served();
      authtoken.process().kill();
      PhaseFigures dead = stage.join(() -> driver.phase(o.phase()));
      served[4] = stale.served();
      stage.join(driver::finish);
      return report(o, List.of(healthy, hung, back, dead), served);
    }
  }

  private static FaultReport report(FaultsOptions o, List<PhaseFigures> p, long[] served) {
    String load = DemoOptions.TENANT + ", " + o.users() + " users";
    PhaseFigures healthy = p.get(0);
    PhaseFigures hung = p.get(1);
    PhaseFigures dead = p.get(3);
    String settings =
        "--auth.cache.ttl "
            + TTL
            + " --auth.cache.stale-if-error "
            + STALE_IF_ERROR
            + (o.gatewayArgs().isEmpty() ? "" : " " + String.join(" ", o.gatewayArgs()));
    FaultReport report =
        new FaultReport("the auth module hung, then dead (gateway: " + settings + ")")
            .row(load, "healthy", "the authtoken module answers", healthy)
            .row(load, "hung", "the authtoken module frozen (SIGSTOP)", hung)
            .row(load, "back", "let go (SIGCONT)", p.get(2))
            .row(load, "dead", "the authtoken module killed (kill -9)", dead)
            .note(
                String.format(
                    Locale.ROOT,
                    "throughput against the healthy phase: hung %.2f, dead %.2f; against `back`"
                        + " (the module answering again, the JVMs warmer): hung %.2f, dead %.2f",
                    ratio(hung, healthy),
                    ratio(dead, healthy),
                    ratio(hung, p.get(2)),
                    ratio(dead, p.get(2))))
            .note(
                "answers served stale (the gateway's staleServed) in each phase: healthy "
                    + delta(served, 1)
                    + ", hung "
                    + delta(served, 2)
                    + ", back "
                    + delta(served, 3)
                    + ", dead "
                    + delta(served, 4));
    return report.target(
        "0 failed operations while the auth module is hung or dead (stale-if-error): "
            + (hung.errors() + dead.errors()),
        hung.errors() + dead.errors() == 0);
  }

  private static double ratio(PhaseFigures phase, PhaseFigures healthy) {
    return phase.both().rps() / healthy.both().rps();
  }

  private static String delta(long[] served, int phase) {
    return served[phase] < 0 || served[phase - 1] < 0
        ? "unknown"
        : Long.toString(served[phase] - served[phase - 1]);
  }

  /** The gateway's count of answers served stale ({@code GET /_/proxy/auth-cache}). Blocking. */
  private record Stale(String gatewayUrl, String superToken) {

    /**
     * @return the count, or -1 if the gateway did not tell
     */
    long served() throws InterruptedException {
      HttpRequest request =
          HttpRequest.newBuilder(URI.create(gatewayUrl + "/_/proxy/auth-cache"))
              .timeout(Duration.ofSeconds(30))
              .header("X-Okapi-Tenant", SuperAdmin.TENANT)
              .header("X-Okapi-Token", superToken)
              .GET()
              .build();
      try {
        HttpResponse<String> answer = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        return answer.statusCode() == 200
            ? new JsonObject(answer.body()).getLong("staleServed", -1L)
            : -1;
      } catch (IOException e) {
        return -1;
      }
    }
  }
}
