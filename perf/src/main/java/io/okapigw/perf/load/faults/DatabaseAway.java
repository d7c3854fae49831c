package io.okapigw.perf.load.faults;

import io.okapigw.demo.DemoOptions;
import io.okapigw.demo.Library;
import io.okapigw.folio.register.SuperAdmin;
import io.okapigw.perf.load.BarcodeRows;
import io.okapigw.perf.load.LoadDriver;
import io.okapigw.perf.load.PhaseFigures;
import io.okapigw.testsupport.FreePorts;
import io.okapigw.testsupport.TestPostgres;
import io.okapigw.testsupport.process.StandaloneGateway;
import io.vertx.core.Future;
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
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * {@code database}: our gateway and the authtoken module (a JVM each) on a PostgreSQL server of
 * their own (the OS's binaries, {@link TestPostgres#startOwn()}), the library registered, the users
 * working. A phase as it is; PostgreSQL stopped as an operator does ({@code pg_ctl stop -m fast})
 * for the next, while the admin reads Stripes makes, {@code /liveness}, {@code /_/proxy/health}, a
 * login and an admin change are tried every {@value #CHECK_MILLIS} ms; then started again, and
 * logins tried until one succeeds, the load going on. Before issue 34 the reads failed 502,
 * liveness 500, and a login hung a minute.
 */
final class DatabaseAway {

  static final String ABOUT =
      "`database`: PostgreSQL stopped for a phase under the gateway and the authtoken module, both"
          + " on it, then started again: admin reads, liveness and logins while it is away and"
          + " after (needs the OS's PostgreSQL server binaries)";

  private static final long CHECK_MILLIS = 500;

  /** Far above every answer expected: a client's patience. */
  private static final Duration PATIENCE = Duration.ofSeconds(30);

  private static final String DISCOVERY = "/_/proxy/tenants/diku/modules?full=true";

  private static final HttpClient HTTP = LoopbackHttp.CLIENT;

  private DatabaseAway() {}

  /**
   * @return why the scenario cannot run here, or {@code null}
   */
  static String skipReason() {
    return TestPostgres.ownServerUnavailable();
  }

  static FaultReport run(Stage stage) throws Exception {
    FaultsOptions o = stage.options;
    try (TestPostgres postgres = TestPostgres.startOwn()) {
      int healthPort = FreePorts.belowEphemeralRange();
      List<String> args =
          new ArrayList<>(
              List.of(
                  "--storage",
                  postgres.createDatabase(),
                  "--healthPort",
                  Integer.toString(healthPort)));
      args.addAll(o.gatewayArgs());
      try (StandaloneGateway gateway = StandaloneGateway.start(o.gatewayJar(), args);
          AuthtokenJvm authtoken =
              AuthtokenJvm.start(
                  stage, "authtoken", postgres.createDatabase(), gateway.url(), List.of())) {
        Library library = stage.library(gateway.url(), authtoken.url());
        LoadDriver driver =
            stage.driver(
                gateway.url(),
                DemoOptions.TENANT,
                o.users(),
                o.warmup(),
                BarcodeRows.of(library.data()));
        String healthUrl = "http://127.0.0.1:" + healthPort;
        String superToken = stage.superAdminToken(gateway.url());
        // the super admin's decisions cached, as a running Stripes' are
        new Checks(gateway.url(), healthUrl, superToken).round();
        Checks checks = new Checks(gateway.url(), healthUrl, superToken);

        PhaseFigures before = stage.join(() -> driver.phase(o.phase()));
        postgres.stop();
        Future<PhaseFigures> awayPhase = stage.start(() -> driver.phase(o.phase()));
        long deadline = System.nanoTime() + o.phase().toNanos();
        checks.round();
        checks.change();
        while (System.nanoTime() < deadline) {
          checks.round();
          TimeUnit.MILLISECONDS.sleep(CHECK_MILLIS);
        }
        PhaseFigures away = Stage.join(awayPhase);
        Future<PhaseFigures> backPhase = stage.start(() -> driver.phase(o.phase()));
        long starting = System.nanoTime();
        postgres.start();
        long started = System.nanoTime();
        Back back = checks.firstLogin(started);
        PhaseFigures after = Stage.join(backPhase);
        stage.join(driver::finish);
        return report(o, before, away, after, checks, (started - starting) / 1e9, back);
      }
    }
  }

  /**
   * @param millis from {@code pg_ctl start}'s return until a login succeeded; -1: none did
   * @param attempts logins tried until then
   */
  private record Back(long millis, int attempts) {}

  private static FaultReport report(
      FaultsOptions o,
      PhaseFigures before,
      PhaseFigures away,
      PhaseFigures after,
      Checks c,
      double startSeconds,
      Back back) {
    String load = DemoOptions.TENANT + ", " + o.users() + " users";
    FaultReport report =
        new FaultReport("PostgreSQL stopped under the gateway and the authtoken module")
            .row(load, "before", "PostgreSQL up", before)
            .row(load, "away", "PostgreSQL stopped (pg_ctl stop -m fast)", away)
            .row(load, "back", "PostgreSQL started again", after)
            .note(
                "away, tried every "
                    + CHECK_MILLIS
                    + " ms: Stripes' discovery call (GET "
                    + DISCOVERY
                    + ") "
                    + c.discovery.text()
                    + "; GET /_/proxy/modules "
                    + c.modules.text()
                    + "; GET /liveness (healthPort) "
                    + c.liveness.text()
                    + "; GET /_/proxy/health "
                    + c.health.text())
            .note(
                String.format(
                    Locale.ROOT,
                    "away: POST /authn/login %s, the slowest answered in %d ms",
                    c.logins.text(),
                    c.slowestLoginMillis))
            .note("away: an admin change (POST /_/proxy/tenants) answered " + c.change)
            .note(
                String.format(
                    Locale.ROOT,
                    "pg_ctl start took %.1f s; then the first login succeeded after %d ms (%d"
                        + " attempts)",
                    startSeconds,
                    back.millis(),
                    back.attempts()));
    return report
        .target(
            "discovery reads 200 while it is away", c.discovery.only(200) && c.modules.only(200))
        .target(
            "liveness alive while it is away (/liveness 204, /_/proxy/health 200)",
            c.liveness.only(204) && c.health.only(200))
        .target(
            "logins while it is away answered at once (503), not hung: slowest "
                + c.slowestLoginMillis
                + " ms",
            c.logins.only(503) && c.slowestLoginMillis < 5000)
        .target(
            "logins fine within 5 s of its return: " + back.millis() + " ms",
            back.millis() >= 0 && back.millis() <= 5000)
        .target(
            "0 failed operations while it is away and after: " + (away.errors() + after.errors()),
            away.errors() + after.errors() == 0);
  }

  /** Statuses counted: {@code 200 ×12}. */
  private static final class Statuses {
    private final Map<String, Integer> counts = new TreeMap<>();

    void add(String status) {
      counts.merge(status, 1, Integer::sum);
    }

    boolean only(int status) {
      return counts.keySet().equals(java.util.Set.of(Integer.toString(status)));
    }

    String text() {
      return counts.entrySet().stream()
          .map(e -> e.getKey() + " ×" + e.getValue())
          .collect(Collectors.joining(", "));
    }
  }

  /** The calls tried while the database is away, and their answers. Blocking. */
  private static final class Checks {
    private final String gatewayUrl;
    private final String healthUrl;
    private final String superToken;
    final Statuses discovery = new Statuses();
    final Statuses modules = new Statuses();
    final Statuses liveness = new Statuses();
    final Statuses health = new Statuses();
    final Statuses logins = new Statuses();
    long slowestLoginMillis;
    String change;

    Checks(String gatewayUrl, String healthUrl, String superToken) {
      this.gatewayUrl = gatewayUrl;
      this.healthUrl = healthUrl;
      this.superToken = superToken;
    }

    void round() throws InterruptedException {
      discovery.add(status(admin(DISCOVERY).GET()));
      modules.add(status(admin("/_/proxy/modules").GET()));
      liveness.add(status(HttpRequest.newBuilder(URI.create(healthUrl + "/liveness")).GET()));
      health.add(status(HttpRequest.newBuilder(URI.create(gatewayUrl + "/_/proxy/health")).GET()));
      long sent = System.nanoTime();
      logins.add(status(login()));
      slowestLoginMillis =
          Math.max(slowestLoginMillis, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent));
    }

    /** An admin change: a tenant created. */
    void change() {
      change = answer(admin("/_/proxy/tenants").POST(body(new JsonObject().put("id", "t34"))));
    }

    /** Tries logins until one succeeds, at most {@link #PATIENCE}. */
    Back firstLogin(long since) {
      int attempts = 0;
      while (System.nanoTime() - since < PATIENCE.toNanos()) {
        attempts++;
        if ("201".equals(status(login()))) {
          return new Back(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since), attempts);
        }
      }
      return new Back(-1, attempts);
    }

    private HttpRequest.Builder login() {
      return HttpRequest.newBuilder(URI.create(gatewayUrl + "/authn/login"))
          .header("X-Okapi-Tenant", DemoOptions.TENANT)
          .header("Content-Type", "application/json")
          .POST(
              body(
                  new JsonObject()
                      .put("username", DemoOptions.ADMIN)
                      .put("password", DemoOptions.ADMIN_PASSWORD)));
    }

    private HttpRequest.Builder admin(String path) {
      return HttpRequest.newBuilder(URI.create(gatewayUrl + path))
          .header("X-Okapi-Tenant", SuperAdmin.TENANT)
          .header("X-Okapi-Token", superToken)
          .header("Content-Type", "application/json");
    }

    private static HttpRequest.BodyPublisher body(JsonObject json) {
      return HttpRequest.BodyPublishers.ofString(json.encode());
    }

    /**
     * @return the status, or {@code no answer} / {@code failed} (the exception's class)
     */
    private static String status(HttpRequest.Builder request) {
      try {
        return Integer.toString(
            HTTP.send(request.timeout(PATIENCE).build(), HttpResponse.BodyHandlers.discarding())
                .statusCode());
      } catch (java.net.http.HttpTimeoutException e) {
        return "no answer";
      } catch (IOException e) {
        return "failed (" + e.getClass().getSimpleName() + ")";
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return "interrupted";
      }
    }

    /**
     * @return the status and the start of the body
     */
    private static String answer(HttpRequest.Builder request) {
      try {
        HttpResponse<String> answer =
            HTTP.send(request.timeout(PATIENCE).build(), HttpResponse.BodyHandlers.ofString());
        String body = answer.body().replace('\n', ' ');
        return answer.statusCode()
            + " `"
            + (body.length() > 120 ? body.substring(0, 120) + "…" : body)
            + "`";
      } catch (IOException e) {
        return "failed (" + e + ")";
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return "interrupted";
      }
    }
  }
}
