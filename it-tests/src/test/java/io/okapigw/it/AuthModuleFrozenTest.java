package io.okapigw.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.testsupport.Await;
import io.okapigw.testsupport.FreePorts;
import io.okapigw.testsupport.process.JavaProcess;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The authtoken module frozen (SIGSTOP: its sockets open, nothing answered) behind a gateway with
 * stale-if-error, both in JVMs of their own, on the gateway's default {@code auth.timeout} and
 * breaker, past the module's {@code auth.warm-up} (none here). Eight logins' grants are cached and
 * left to expire (TTL 1 s), so each request asks the auth module again (on a busy machine an answer
 * may come after the TTL: it is kept all the same, stale, for stale-if-error; before, it was not
 * kept at all, and those tokens got 503 while the module was frozen): with it frozen, the requests
 * get the cached grant, stale, after the auth timeout, and once the breaker is open at once.
 * Before, they waited for {@code proxy.idle-timeout} (60 s): no stale answer within a client's
 * patience.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class AuthModuleFrozenTest {

  /** A client's patience: far above the auth timeout (3 s), far below the idle timeout (60 s). */
  private static final Duration PATIENCE = Duration.ofSeconds(30);

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @TempDir static Path dir;

  private static Vertx vertx;
  private static JavaProcess gateway;
  private static JavaProcess authtoken;
  private static String gatewayUrl;

  /** Eight logins of alice: eight decisions cached, each revalidated on its own. */
  private static final List<String> tokens = new ArrayList<>();

  /** What the gateway answered to a guarded request instead of 200, for the failure message. */
  private static final List<String> refusals = new CopyOnWriteArrayList<>();

  /** One more, cached after them: once its decision has expired, theirs have. */
  private static String sentinel;

  @BeforeAll
  static void start() throws Exception {
    vertx = Vertx.vertx();
    HttpServer module = GuardedTenant.guardedModule(vertx);
    int gatewayPort = FreePorts.belowEphemeralRange();
    gatewayUrl = "http://127.0.0.1:" + gatewayPort;
    gateway =
        Jars.devGateway(
            gatewayPort,
            "--auth.cache.ttl",
            "1s",
            "--auth.cache.stale-if-error",
            "5m",
            // frozen after its warm-up: in it a call may wait auth.cold-timeout (60 s)
            "--auth.warm-up",
            "0s");
    gateway.awaitReady(gatewayUrl + "/_/version", JavaProcess.PATIENCE);
    GuardedTenant.Authtoken started =
        GuardedTenant.startAuthtoken("json:" + dir.resolve("store"), dir, gatewayUrl);
    authtoken = started.process();
    GuardedTenant.install(AdminCalls.at(gatewayUrl), started.url(), module);
    for (int i = 0; i < 8; i++) {
      tokens.add(AdminCalls.login(gatewayUrl, "diku", "alice", "alice"));
    }
    sentinel = AdminCalls.login(gatewayUrl, "diku", "alice", "alice");
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
  }

  private static CompletableFuture<Integer> guarded(String token) {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(gatewayUrl + "/guarded"))
            .header("X-Okapi-Tenant", "diku")
            .header("X-Okapi-Token", token)
            .timeout(PATIENCE)
            .build();
    return HTTP.sendAsync(request, HttpResponse.BodyHandlers.ofString())
        .thenApply(
            response -> {
              if (response.statusCode() != 200) {
                refusals.add(response.statusCode() + " " + response.body());
              }
              return response.statusCode();
            })
        .exceptionally(e -> -1);
  }

  /** One request with each token, all at once. */
  private static List<Integer> withEachToken() {
    List<CompletableFuture<Integer>> answers = tokens.stream().map(t -> guarded(t)).toList();
    return answers.stream().map(CompletableFuture::join).toList();
  }

  private static double authCalls() {
    return given()
        .baseUri(gatewayUrl)
        .get("/_/metrics")
        .asString()
        .lines()
        .filter(l -> l.startsWith("okapi_auth_calls_total{"))
        .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
        .sum();
  }

  private static int staleServed() {
    return given()
        .baseUri(gatewayUrl)
        .get("/_/proxy/auth-cache")
        .then()
        .statusCode(200)
        .extract()
        .jsonPath()
        .getInt("staleServed");
  }

  @Test
  void authModuleFrozen_cachedGrantsServedStale_thenAtOnce_andFreshAgainWhenItIsBack() {
    assertThat(withEachToken()).as("granted and cached").containsOnly(200);
    assertThat(guarded(sentinel).join()).isEqualTo(200);
    Await.until(
        () -> {
          double calls = authCalls();
          guarded(sentinel).join();
          return authCalls() > calls;
        },
        "the sentinel's decision, cached after the others, expired (auth.cache.ttl 1s)");

    authtoken.pause();
    List<Integer> statuses;
    long start = System.nanoTime();
    try {
      statuses = new ArrayList<>(withEachToken());
      long firstWave = System.nanoTime();
      statuses.addAll(withEachToken());
      long secondWave = System.nanoTime();
      System.out.printf(
          "AuthModuleFrozenTest: auth module frozen; 8 concurrent requests (one per token) answered"
              + " within %d ms, 8 more within %d ms; statuses %s%n",
          TimeUnit.NANOSECONDS.toMillis(firstWave - start),
          TimeUnit.NANOSECONDS.toMillis(secondWave - firstWave),
          statuses);
    } finally {
      authtoken.resume();
    }

    assertThat(statuses)
        .as(
            () ->
                "every request answered with the cached grant within "
                    + PATIENCE
                    + " (-1: no answer); instead: "
                    + refusals
                    + "\ngateway's log:\n"
                    + gateway.outputTail())
        .containsOnly(200);
    assertThat(staleServed()).as("answers served stale").isGreaterThanOrEqualTo(16);
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    boolean fresh = false;
    while (!fresh && System.nanoTime() < deadline) {
      int before = staleServed();
      assertThat(guarded(tokens.get(0)).join()).as("the module is back").isEqualTo(200);
      fresh = staleServed() == before;
    }
    assertThat(fresh).as("answered fresh again once the module is back").isTrue();
  }
}
