package io.okapigw.core.bulkhead;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.benmanes.caffeine.cache.Ticker;
import io.okapigw.config.Settings;
import io.okapigw.core.Gateway;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.timer.Scheduler;
import io.okapigw.testsupport.Await;
import io.okapigw.testsupport.HoldingModule;
import io.vertx.core.Vertx;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Tenants' bulkheads through a real gateway and a real module that holds {@code /slow} requests
 * until the test answers them: one tenant's flood is refused 429 past its limit, while another
 * tenant of the same module instance is served at once.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class TenantBulkheadTest {

  private static final String MODULE = "mod-shared-1.0.0";

  private final HttpClient http = HttpClient.newHttpClient();
  private Vertx vertx;
  private HoldingModule module;
  private Gateway gateway;
  private String url;

  @BeforeEach
  void startModule() {
    vertx = Vertx.vertx();
    module = HoldingModule.start(vertx);
  }

  @AfterEach
  void stop() {
    vertx.close().await();
  }

  @Test
  void flood_pastItsLimit_refused429_otherTenantServedAtOnce() throws Exception {
    start(
        Map.of("proxy.max-connections", "4", "bulkhead.tenant-max-in-flight", "flood=3"),
        Ticker.systemTicker());
    List<CompletableFuture<HttpResponse<String>>> flood = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      flood.add(send("flood", "/slow"));
    }
    module.awaitHeld(3);
    Await.until(() -> flood.stream().filter(CompletableFuture::isDone).count() == 7, "7 refused");

    HttpResponse<String> calm = send("calm", "/fast").get(1, TimeUnit.MINUTES);

    assertThat(calm.statusCode()).isEqualTo(200);
    assertThat(calm.body()).isEqualTo("fast");
    HttpResponse<String> first =
        flood.stream().filter(CompletableFuture::isDone).findFirst().get().get();
    assertThat(first.statusCode()).isEqualTo(429);
    assertThat(first.headers().firstValue("Retry-After")).hasValue("1");
    assertThat(first.body())
        .isEqualTo(
            "tenant flood has 3 requests in flight, its limit on this node"
                + " (bulkhead.max-in-flight); retry later");
    assertThat(metrics())
        .contains("okapi_tenant_requests_in_flight{tenant=\"flood\"} 3.0")
        .contains("okapi_tenant_requests_rejected_total{limit=\"in-flight\",tenant=\"flood\"} 7.0")
        .contains("okapi_tenant_requests_rejected_total{limit=\"in-flight\",tenant=\"calm\"} 0.0");

    assertThat(module.held()).isEqualTo(3);
    module.answerAll("late");
    for (CompletableFuture<HttpResponse<String>> f : flood) {
      assertThat(f.get(1, TimeUnit.MINUTES).statusCode()).isIn(200, 429);
    }
    Await.until(
        () -> metrics().contains("okapi_tenant_requests_in_flight{tenant=\"flood\"} 0.0"),
        "the flood's places given back");
    assertThat(send("flood", "/fast").get(1, TimeUnit.MINUTES).statusCode()).isEqualTo(200);
  }

  @Test
  void moduleCallBack_withTheRequestIdItWasSent_neverRefused() throws Exception {
    start(Map.of("bulkhead.max-in-flight", "1"), Ticker.systemTicker());
    CompletableFuture<HttpResponse<String>> first = send("flood", "/slow");
    module.awaitHeld(1);
    String sent = module.heldHeader(0, "X-Okapi-Request-Id");

    HttpResponse<String> fromClient = send("flood", "/fast").get(1, TimeUnit.MINUTES);
    HttpResponse<String> callBack =
        http.send(
            request("flood", "/fast").header("X-Okapi-Request-Id", sent).build(),
            HttpResponse.BodyHandlers.ofString());

    assertThat(fromClient.statusCode()).isEqualTo(429);
    assertThat(callBack.statusCode()).isEqualTo(200);
    module.answerAll("done");
    assertThat(first.get(1, TimeUnit.MINUTES).statusCode()).isEqualTo(200);
  }

  @Test
  void clientWithARequestIdOfItsOwn_countedAsAnyClient() throws Exception {
    start(Map.of("bulkhead.max-in-flight", "1"), Ticker.systemTicker());
    CompletableFuture<HttpResponse<String>> first = send("flood", "/slow");
    module.awaitHeld(1);
    String sent = module.heldHeader(0, "X-Okapi-Request-Id");

    // a made-up id, ids like the one sent but not it, and the id as logs show it
    String lastChanged = sent.substring(0, sent.length() - 1) + (sent.endsWith("A") ? "B" : "A");
    String logged = sent.substring(0, sent.length() - 24);
    for (String forged :
        new String[] {"123456/slow", sent.substring(0, 11), sent + "x", lastChanged, logged}) {
      HttpResponse<String> answer =
          http.send(
              request("flood", "/fast").header("X-Okapi-Request-Id", forged).build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(answer.statusCode()).as(forged).isEqualTo(429);
    }
    module.answerAll("done");
    assertThat(first.get(1, TimeUnit.MINUTES).statusCode()).isEqualTo(200);
  }

  @Test
  void callBack_ofAnotherTenantsCall_countedAsAClientOfItsOwnTenant() throws Exception {
    start(Map.of("bulkhead.max-in-flight", "1"), Ticker.systemTicker());
    CompletableFuture<HttpResponse<String>> flood = send("flood", "/slow");
    CompletableFuture<HttpResponse<String>> calm = send("calm", "/slow");
    module.awaitHeld(2);
    String floodsCall = sentFor("flood");

    HttpResponse<String> borrowed =
        http.send(
            request("calm", "/fast").header("X-Okapi-Request-Id", floodsCall).build(),
            HttpResponse.BodyHandlers.ofString());

    assertThat(borrowed.statusCode()).isEqualTo(429);
    module.answerAll("done");
    assertThat(flood.get(1, TimeUnit.MINUTES).statusCode()).isEqualTo(200);
    assertThat(calm.get(1, TimeUnit.MINUTES).statusCode()).isEqualTo(200);
  }

  @Test
  void requestIdsSent_eachHopCarries128BitsNoClientCanGuess() throws Exception {
    start(Map.of("bulkhead.max-in-flight", "100"), Ticker.systemTicker());
    List<CompletableFuture<HttpResponse<String>>> held = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      held.add(send("flood", "/slow"));
    }
    module.awaitHeld(50);
    Set<String> secrets = new HashSet<>();
    for (int i = 0; i < 50; i++) {
      String sent = module.heldHeader(i, "X-Okapi-Request-Id");
      // Okapi's six digits and first path segment, then a handle (48 bits) and a secret (144)
      assertThat(sent).matches("\\d{6}/slow~[A-Za-z0-9_-]{32}");
      secrets.add(sent.substring(sent.length() - 24));
    }
    assertThat(secrets).hasSize(50);
    module.answerAll("done");
    for (CompletableFuture<HttpResponse<String>> f : held) {
      assertThat(f.get(1, TimeUnit.MINUTES).statusCode()).isEqualTo(200);
    }
  }

  @Test
  void callBack_fromAModuleThatChainsAnIdOfItsOwn_neverRefused() throws Exception {
    start(Map.of("bulkhead.max-in-flight", "1"), Ticker.systemTicker());
    CompletableFuture<HttpResponse<String>> first = send("flood", "/slow");
    module.awaitHeld(1);
    // okapi-common's OkapiClient.newReqId appends ";NNNNNN/path" to the id it got
    String chained = module.heldHeader(0, "X-Okapi-Request-Id") + ";654321/fast";

    HttpResponse<String> callBack =
        http.send(
            request("flood", "/fast").header("X-Okapi-Request-Id", chained).build(),
            HttpResponse.BodyHandlers.ofString());

    assertThat(callBack.statusCode()).isEqualTo(200);
    module.answerAll("done");
    assertThat(first.get(1, TimeUnit.MINUTES).statusCode()).isEqualTo(200);
  }

  @Test
  void rate_pastItsTokens_refused429WithRetryAfter_refilledAsTheClockMoves() throws Exception {
    FakeTicker ticker = new FakeTicker();
    start(Map.of("bulkhead.rate", "100", "bulkhead.tenant-rate", "flood=2"), ticker);

    assertThat(send("flood", "/fast").get().statusCode()).isEqualTo(200);
    assertThat(send("flood", "/fast").get().statusCode()).isEqualTo(200);
    HttpResponse<String> third = send("flood", "/fast").get();
    assertThat(send("calm", "/fast").get().statusCode()).isEqualTo(200);
    ticker.advance(Duration.ofMillis(499));
    int early = send("flood", "/fast").get().statusCode();
    ticker.advance(Duration.ofMillis(1));
    int refilled = send("flood", "/fast").get().statusCode();

    assertThat(third.statusCode()).isEqualTo(429);
    assertThat(third.headers().firstValue("Retry-After")).hasValue("1");
    assertThat(third.body())
        .isEqualTo(
            "tenant flood is past its 2 requests a second, its limit on this node"
                + " (bulkhead.rate); retry in 1 s");
    assertThat(early).isEqualTo(429);
    assertThat(refilled).isEqualTo(200);
    assertThat(metrics())
        .contains("okapi_tenant_requests_rejected_total{limit=\"rate\",tenant=\"flood\"} 2.0");
  }

  @Test
  void defaults_noLimit() {
    BulkheadOptions defaults = GatewayOptions.from(Settings.of(Map.of())).bulkhead();

    assertThat(defaults.maxInFlightOf("diku")).isZero();
    assertThat(defaults.rateOf("diku")).isZero();
  }

  @Test
  void perTenantSetting_notAList_refusedNamingIt() {
    assertThatThrownBy(
            () ->
                GatewayOptions.from(
                    Settings.of(Map.of("bulkhead.tenant-max-in-flight", "diku:200"))))
        .hasMessageContaining("bulkhead.tenant-max-in-flight must be a list of tenant=N")
        .hasMessageContaining("diku:200");
    assertThat(
            GatewayOptions.from(
                    Settings.of(Map.of("bulkhead.tenant-max-in-flight", "diku=200, import=0")))
                .bulkhead()
                .tenantMaxInFlight())
        .isEqualTo(Map.of("diku", 200, "import", 0));
  }

  private void start(Map<String, String> settings, Ticker ticker) {
    GatewayOptions options =
        GatewayOptions.from(Settings.of(settings)).withPort(0).withInstances(1);
    gateway = Gateway.start(vertx, options, ticker, Scheduler.system(vertx)).await();
    url = "http://localhost:" + gateway.port();
    for (String tenant : List.of("flood", "calm")) {
      admin("/_/proxy/tenants", "{\"id\":\"" + tenant + "\"}");
    }
    admin(
        "/_/proxy/modules",
        GatewayFixture.module(
                MODULE,
                "shared",
                GatewayFixture.handler("GET", "/slow"),
                GatewayFixture.handler("GET", "/fast"))
            .encode());
    admin("/_/discovery/modules", GatewayFixture.instance(MODULE, "one", module.url()).encode());
    for (String tenant : List.of("flood", "calm")) {
      admin("/_/proxy/tenants/" + tenant + "/modules", "{\"id\":\"" + MODULE + "\"}");
    }
  }

  private void admin(String path, String body) {
    try {
      HttpResponse<String> r =
          http.send(
              HttpRequest.newBuilder(URI.create(url + path))
                  .POST(HttpRequest.BodyPublishers.ofString(body))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(201);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /** The request id the module got with the held request of {@code tenant}. */
  private String sentFor(String tenant) {
    for (int i = 0; i < module.held(); i++) {
      if (tenant.equals(module.heldHeader(i, "X-Okapi-Tenant"))) {
        return module.heldHeader(i, "X-Okapi-Request-Id");
      }
    }
    throw new AssertionError("no held request of " + tenant);
  }

  private HttpRequest.Builder request(String tenant, String path) {
    return HttpRequest.newBuilder(URI.create(url + path)).header("X-Okapi-Tenant", tenant);
  }

  private CompletableFuture<HttpResponse<String>> send(String tenant, String path) {
    return http.sendAsync(request(tenant, path).build(), HttpResponse.BodyHandlers.ofString());
  }

  private String metrics() {
    try {
      return http.send(
              HttpRequest.newBuilder(URI.create(url + "/_/metrics")).build(),
              HttpResponse.BodyHandlers.ofString())
          .body();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /** A clock that moves only when the test says. */
  private static final class FakeTicker implements Ticker {
    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);

    @Override
    public long read() {
      return nanos.get();
    }

    void advance(Duration d) {
      nanos.addAndGet(d.toNanos());
    }
  }
}
