package io.okapigw.it;

import static io.restassured.RestAssured.given;

import io.okapigw.testsupport.FreePorts;
import io.okapigw.testsupport.TestPostgres;
import io.okapigw.testsupport.process.JavaProcess;
import io.restassured.response.Response;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * PostgreSQL stopped ({@code pg_ctl stop -m fast}) under a gateway and the authtoken module, both
 * on it, each a JVM of its own, then started again. While it is away: Stripes' discovery call and
 * the other admin reads are answered from memory, {@code /liveness} says the process is alive,
 * proxied requests go on, an admin change and a login get a 503 at once. Once it is back, the first
 * login works (the time is printed; {@code perf faults --scenario database} measures it). Before:
 * the reads failed 502 ("connection to a module failed"), liveness 500 for the whole outage, and a
 * login got no answer until the gateway gave up (504, a minute).
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class DatabaseAwayTest {

  /** A client's patience: far above a 503's time, far below the gateway's idle timeout (60 s). */
  private static final Duration PATIENCE = Duration.ofSeconds(30);

  @TempDir static Path dir;

  private static TestPostgres postgres;
  private static Vertx vertx;
  private static JavaProcess gateway;
  private static JavaProcess authtoken;
  private static String gatewayUrl;
  private static String healthUrl;

  @BeforeAll
  static void start() throws Exception {
    String unavailable = TestPostgres.ownServerUnavailable();
    if (unavailable != null) {
      System.out.println("DatabaseAwayTest skipped: " + unavailable);
    }
    Assumptions.assumeTrue(unavailable == null, unavailable);
    postgres = TestPostgres.startOwn();
    vertx = Vertx.vertx();
    HttpServer module = GuardedTenant.guardedModule(vertx);
    int gatewayPort = FreePorts.belowEphemeralRange();
    int healthPort = FreePorts.belowEphemeralRange();
    gatewayUrl = "http://127.0.0.1:" + gatewayPort;
    healthUrl = "http://127.0.0.1:" + healthPort;
    gateway =
        Jars.devGateway(
            gatewayPort,
            "--storage",
            postgres.createDatabase(),
            "--healthPort",
            Integer.toString(healthPort));
    gateway.awaitReady(gatewayUrl + "/_/version", JavaProcess.PATIENCE);
    GuardedTenant.Authtoken started =
        GuardedTenant.startAuthtoken(postgres.createDatabase(), dir, gatewayUrl);
    authtoken = started.process();
    GuardedTenant.install(AdminCalls.at(gatewayUrl), started.url(), module);
  }

  @AfterAll
  static void stop() {
    if (authtoken != null) {
      authtoken.close();
    }
    if (gateway != null) {
      gateway.close();
    }
    if (vertx != null) {
      vertx.close().await();
    }
    if (postgres != null) {
      postgres.close();
    }
  }

  private static Response login() {
    return given()
        .baseUri(gatewayUrl)
        .header("X-Okapi-Tenant", "diku")
        .contentType("application/json")
        .body(new JsonObject().put("username", "alice").put("password", "alice").encode())
        .post("/authn/login");
  }

  private static long millisSince(long nanos) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - nanos);
  }

  private static int status(String base, String path) {
    return given().baseUri(base).get(path).statusCode();
  }

  @Test
  void postgresStopped_readsFromMemory_livenessAlive_changesAndLogins503_loginsBackSoonAfter() {
    String token = login().then().statusCode(201).extract().header("X-Okapi-Token");
    given()
        .baseUri(gatewayUrl)
        .header("X-Okapi-Tenant", "diku")
        .header("X-Okapi-Token", token)
        .get("/guarded")
        .then()
        .statusCode(200); // decided, and the decision cached, as for the workload's requests
    SoftAssertions away = new SoftAssertions();

    postgres.stop();
    try {
      away.assertThat(status(gatewayUrl, "/_/proxy/tenants/diku/modules?full=true"))
          .as("Stripes' discovery call")
          .isEqualTo(200);
      away.assertThat(status(gatewayUrl, "/_/proxy/modules")).as("modules").isEqualTo(200);
      away.assertThat(status(gatewayUrl, "/_/discovery/modules")).as("discovery").isEqualTo(200);
      away.assertThat(status(gatewayUrl, "/_/proxy/tenants/diku")).as("tenant").isEqualTo(200);
      away.assertThat(status(healthUrl, "/liveness")).as("liveness").isEqualTo(204);
      away.assertThat(status(gatewayUrl, "/_/proxy/health"))
          .as("the main port's health, which Docker's and compose's checks ask")
          .isEqualTo(200);
      away.assertThat(status(healthUrl, "/readiness")).as("readiness").isEqualTo(204);
      away.assertThat(
              given()
                  .baseUri(gatewayUrl)
                  .header("X-Okapi-Tenant", "diku")
                  .header("X-Okapi-Token", token)
                  .get("/guarded")
                  .statusCode())
          .as("a proxied request whose decision is cached")
          .isEqualTo(200);
      Response change =
          given().baseUri(gatewayUrl).body("{\"id\":\"newtenant\"}").post("/_/proxy/tenants");
      away.assertThat(change.statusCode() + " " + change.asString())
          .as("an admin change")
          .startsWith("503 storage unavailable: PostgreSQL at 127.0.0.1:");

      long sent = System.nanoTime();
      Response login = login();
      long answered = millisSince(sent);
      System.out.printf(
          "DatabaseAwayTest: a login while PostgreSQL was stopped: %d in %d ms%n",
          login.statusCode(), answered);
      away.assertThat(login.statusCode()).as("a login: %s", login.asString()).isEqualTo(503);
      away.assertThat(Duration.ofMillis(answered)).as("a login's answer").isLessThan(PATIENCE);
    } finally {
      postgres.start();
    }

    long back = System.nanoTime();
    int first = login().statusCode();
    int attempts = 1;
    int status = first;
    while (status != 201 && millisSince(back) < PATIENCE.toMillis()) {
      status = login().statusCode();
      attempts++;
    }
    System.out.printf(
        "DatabaseAwayTest: logins work again %d ms after PostgreSQL was started (%d attempts)%n",
        millisSince(back), attempts);
    away.assertThat(first)
        .as("the first login once PostgreSQL is back (no pool waiting out dead connections)")
        .isEqualTo(201);
    away.assertThat(status).as("a login after the database's return").isEqualTo(201);
    away.assertThat(
            given()
                .baseUri(gatewayUrl)
                .body("{\"id\":\"newtenant\"}")
                .post("/_/proxy/tenants")
                .statusCode())
        .as("an admin change after its return")
        .isEqualTo(201);
    away.assertAll();
  }
}
