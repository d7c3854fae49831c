package io.okapigw.core.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.config.NodeOptions;
import io.okapigw.core.testing.FakeScheduler;
import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.RawClient;
import io.okapigw.testsupport.Await;
import io.okapigw.testsupport.Descriptors;
import io.okapigw.testsupport.FreePorts;
import io.okapigw.testsupport.HoldingModule;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.ConnectException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A node's drain ({@code Gateway.drain()}, what SIGTERM runs), with the readiness delay on a fake
 * clock: readiness false at once, requests served with {@code Connection: close} until the delay is
 * over, then no new connection, the requests in flight answered in full (or cut at the drain
 * timeout), then the drain completes.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class DrainTest {

  private static final String MODULE = "mod-slow-1.0.0";
  private static final Duration DELAY = Duration.ofSeconds(5);

  private final HttpClient http = HttpClient.newHttpClient();
  private HoldingModule module;
  private final FakeScheduler scheduler = new FakeScheduler(Instant.parse("2026-01-01T00:00:00Z"));
  private final int healthPort = FreePorts.belowEphemeralRange();
  private GatewayFixture gw;

  @AfterEach
  void close() {
    gw.close();
  }

  @Test
  void drain_requestInFlight_readinessFalseAtOnce_servedUntilDelay_thenAnsweredInFull()
      throws Exception {
    start(new DrainOptions(Duration.ofSeconds(60), DELAY));
    CompletableFuture<HttpResponse<String>> inFlight = send("/slow");
    module.awaitHeld(1);
    assertThat(get(readiness()).statusCode()).isEqualTo(204);

    Future<Void> drained = gw.gateway().drain();

    assertThat(get(readiness()).statusCode()).isEqualTo(503);
    assertThat(get(readiness()).body()).isEqualTo("draining: this node is shutting down");
    HttpResponse<String> health = get(gw.url() + "/_/proxy/health");
    assertThat(health.statusCode()).isEqualTo(503);
    assertThat(health.body()).contains("\"status\":\"DRAINING\"");
    HttpResponse<String> duringDelay = send("/fast").get(1, TimeUnit.MINUTES);
    assertThat(duringDelay.statusCode()).isEqualTo(200);
    assertThat(duringDelay.headers().firstValue("Connection")).hasValue("close");
    assertThat(accepts(gw.gateway().port())).as("listening during the delay").isTrue();

    scheduler.advance(DELAY);

    assertThat(drained.isComplete()).as("still draining its request").isFalse();
    module.answerAll("the answer, late");
    HttpResponse<String> answer = inFlight.get(1, TimeUnit.MINUTES);
    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.body()).isEqualTo("the answer, late");
    assertThat(answer.headers().firstValue("Connection")).hasValue("close");
    drained.await(1, TimeUnit.MINUTES);
    assertThat(accepts(gw.gateway().port())).as("listening once all is answered").isFalse();
  }

  @Test
  void drain_afterTheDelay_callBackOfARequestInFlightServed_clientRefused503_thenListenerClosed()
      throws Exception {
    start(new DrainOptions(Duration.ofSeconds(60), DELAY));
    CompletableFuture<HttpResponse<String>> inFlight = send("/slow");
    module.awaitHeld(1);
    String sentToModule = module.heldHeader(0, "X-Okapi-Request-Id");
    Future<Void> drained = gw.gateway().drain();

    scheduler.advance(DELAY);

    Await.until(() -> refusedAsDraining(send("/fast").join()), "new client requests refused");
    HttpResponse<String> client = send("/fast").get(1, TimeUnit.MINUTES);
    assertThat(client.statusCode()).isEqualTo(503);
    assertThat(client.headers().firstValue("Connection")).hasValue("close");
    assertThat(client.body()).contains("draining");
    HttpResponse<String> forged =
        send("/fast", "123456/slow~AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA").get();
    assertThat(forged.statusCode()).as("a made-up key is a client's").isEqualTo(503);
    // the module calls back with the id it was sent, as FOLIO's clients do (a new connection)
    HttpResponse<String> callBack = send("/fast", sentToModule + ";654321/fast").get();
    assertThat(callBack.statusCode()).isEqualTo(200);
    assertThat(callBack.body()).isEqualTo("fast");
    assertThat(callBack.headers().firstValue("Connection")).hasValue("close");
    assertThat(drained.isComplete()).as("still draining its request").isFalse();

    module.answerAll("the answer, late");

    HttpResponse<String> answer = inFlight.get(1, TimeUnit.MINUTES);
    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.body()).isEqualTo("the answer, late");
    drained.await(1, TimeUnit.MINUTES);
    assertThat(accepts(gw.gateway().port())).as("listening once all is answered").isFalse();
    assertThat(send("/fast", sentToModule)).failsWithin(1, TimeUnit.MINUTES);
  }

  /**
   * A call the node makes of its own (a timer's, as an install's {@code _tenant} call) is in flight
   * as a client's request is: what its module calls back meanwhile, with the request id it was
   * sent, is served by a draining node, which closes its listeners once that call is answered.
   */
  @Test
  void drain_afterTheDelay_callBackOfATimerCallInFlightServed_thenListenerClosed()
      throws Exception {
    start(new DrainOptions(Duration.ofSeconds(60), DELAY));
    installTimerEveryMinute();
    scheduler.advanceStarting(Duration.ofMinutes(1));
    module.awaitHeld(1);
    String sentToModule = module.heldHeader(0, "X-Okapi-Request-Id");
    assertThat(sentToModule).as("the timer call's X-Okapi-Request-Id").contains("/slow");
    Future<Void> drained = gw.gateway().drain();

    scheduler.advance(DELAY);

    Await.until(() -> refusedAsDraining(send("/fast").join()), "new client requests refused");
    HttpResponse<String> callBack =
        send("/fast", sentToModule + ";654321/fast").get(1, TimeUnit.MINUTES);
    assertThat(callBack.statusCode()).isEqualTo(200);
    assertThat(callBack.body()).isEqualTo("fast");
    assertThat(drained.isComplete()).as("still draining the timer's call").isFalse();

    module.answerAll("done");

    drained.await(1, TimeUnit.MINUTES);
    assertThat(accepts(gw.gateway().port())).as("listening once all is answered").isFalse();
  }

  /**
   * A draining node starts no timer call (the other members claim the runs): one it started would
   * be in flight, and the drain would wait for it, up to the drain timeout.
   */
  @Test
  void drain_timerDueWhileDraining_noCallMade_drainDoesNotWaitForIt() throws Exception {
    start(new DrainOptions(Duration.ofMinutes(10), Duration.ofMinutes(5)));
    installTimerEveryMinute();
    Future<Void> drained = gw.gateway().drain();

    scheduler.advanceStarting(Duration.ofMinutes(5));

    drained.await(1, TimeUnit.MINUTES);
    assertThat(module.held()).as("timer calls made while draining").isZero();
    assertThat(accepts(gw.gateway().port())).isFalse();
  }

  @Test
  void drain_idleKeepAliveConnection_nextAnswerSaysCloseAndClosesIt() throws Exception {
    start(new DrainOptions(Duration.ofSeconds(60), DELAY));
    try (RawClient client = RawClient.connect(gw.gateway().port())) {
      RawClient.Response before = client.headWith("GET", "/fast", null).response();
      assertThat(before.head().headers()).doesNotContainKey("connection");

      gw.gateway().drain();
      RawClient.Response after = client.headWith("GET", "/fast", null).response();

      assertThat(after.status()).isEqualTo(200);
      assertThat(after.body()).isEqualTo("fast");
      assertThat(after.head().headers()).containsEntry("connection", "close");
      assertThat(client.readUntilClosed()).isZero();
    }
  }

  @Test
  void drain_requestPastTheDrainTimeout_itsConnectionClosed_drainCompletes() throws Exception {
    start(new DrainOptions(Duration.ofMillis(300), Duration.ZERO));
    CompletableFuture<HttpResponse<String>> inFlight = send("/slow");
    module.awaitHeld(1);

    gw.gateway().drain().await(1, TimeUnit.MINUTES);

    try {
      HttpResponse<String> r = inFlight.get(1, TimeUnit.MINUTES);
      throw new AssertionError("answered after the drain timeout: " + r.statusCode());
    } catch (ExecutionException e) {
      assertThat(e.getCause()).isInstanceOf(IOException.class);
    }
    assertThat(accepts(gw.gateway().port())).isFalse();
  }

  @Test
  void drain_nothingInFlight_completesWithoutWaitingForTheTimeout() throws Exception {
    start(new DrainOptions(Duration.ofMinutes(10), Duration.ZERO));

    gw.gateway().drain().await(1, TimeUnit.MINUTES);

    assertThat(accepts(gw.gateway().port())).isFalse();
  }

  private void start(DrainOptions drain) {
    gw =
        new GatewayFixture(
            GatewayOptions.defaults(0)
                .withNode(new NodeOptions(null, healthPort, Duration.ZERO))
                .withDrain(drain),
            scheduler);
    module = HoldingModule.start(gw.vertx());
    gw.createTenant("diku");
    gw.install(
        "diku",
        GatewayFixture.module(
            MODULE,
            "slow",
            GatewayFixture.handler("GET", "/slow"),
            GatewayFixture.handler("GET", "/fast")),
        module.url());
  }

  /** A module whose timer POSTs {@code /slow} (held by the module) every minute. */
  private void installTimerEveryMinute() {
    JsonObject everyMinute =
        new JsonObject()
            .put("methods", new JsonArray().add("POST"))
            .put("pathPattern", "/slow")
            .put("unit", "minute")
            .put("delay", "1");
    gw.install(
        "diku", Descriptors.systemModule("mod-timer-1.0.0", "_timer", everyMinute), module.url());
  }

  private String readiness() {
    return "http://127.0.0.1:" + healthPort + "/readiness";
  }

  private CompletableFuture<HttpResponse<String>> send(String path) {
    return send(path, null);
  }

  /** A request of tenant diku, with {@code requestId} as its X-Okapi-Request-Id if not null. */
  private CompletableFuture<HttpResponse<String>> send(String path, String requestId) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(gw.url() + path)).header("X-Okapi-Tenant", "diku");
    if (requestId != null) {
      request.header("X-Okapi-Request-Id", requestId);
    }
    return http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static boolean refusedAsDraining(HttpResponse<String> response) {
    return response.statusCode() == 503;
  }

  private HttpResponse<String> get(String url) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static boolean accepts(int port) {
    try (Socket socket = new Socket("localhost", port)) {
      return true;
    } catch (ConnectException e) {
      return false;
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }
}
