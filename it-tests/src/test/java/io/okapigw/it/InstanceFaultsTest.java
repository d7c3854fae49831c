package io.okapigw.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.testsupport.Descriptors;
import io.okapigw.testsupport.FreePorts;
import io.okapigw.testsupport.OnContext;
import io.okapigw.testsupport.process.JavaProcess;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 25 against a gateway process: a module with two instances, requests from several clients at
 * once, and one instance stopped in the middle (its connections closed with it), then started again
 * on its port. No request fails, the stopped instance is ejected (a metric and {@code
 * /_/discovery/health?learned=true} say so), and it is taken back once it answers again.
 */
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class InstanceFaultsTest {

  private static final int CLIENTS = 4;

  private Vertx vertx;
  private JavaProcess gateway;
  private String gatewayUrl;
  private HttpClientAgent client;
  private final Map<String, AtomicInteger> served = new ConcurrentHashMap<>();
  private final AtomicLong sent = new AtomicLong();
  private final Map<Long, String> pending = new ConcurrentHashMap<>();
  private HttpServer first;
  private int firstPort;

  @BeforeEach
  void start() throws Exception {
    vertx = Vertx.vertx();
    first = instance("first", 0);
    firstPort = first.actualPort();
    HttpServer second = instance("second", 0);
    int port = FreePorts.belowEphemeralRange();
    gatewayUrl = "http://localhost:" + port;
    gateway =
        Jars.devGateway(
            port,
            "--proxy.outlier.ejection",
            "500ms",
            "--proxy.outlier.max-ejection",
            "2s",
            "--access-log",
            "true");
    gateway.awaitReady(gatewayUrl + "/_/version", JavaProcess.PATIENCE);
    AdminCalls admin = AdminCalls.at(gatewayUrl);
    admin.createTenant("diku");
    admin.register(
        Descriptors.module("mod-pair-1.0.0", "pair", Descriptors.handler("*", "/pair/*")),
        "http://127.0.0.1:" + firstPort);
    given()
        .baseUri(gatewayUrl)
        .body(
            new JsonObject()
                .put("srvcId", "mod-pair-1.0.0")
                .put("instId", "mod-pair-1.0.0-2")
                .put("url", "http://127.0.0.1:" + second.actualPort())
                .encode())
        .post("/_/discovery/modules")
        .then()
        .statusCode(201);
    admin.enable("diku", "mod-pair-1.0.0");
    client = vertx.createHttpClient();
  }

  @AfterEach
  void stop() {
    if (gateway != null) {
      gateway.close();
    }
    vertx.close().await();
  }

  private HttpServer instance(String name, int port) {
    served.putIfAbsent(name, new AtomicInteger());
    return vertx
        .createHttpServer()
        .requestHandler(
            req -> {
              served.get(name).incrementAndGet();
              req.response().end(name);
            })
        .listen(port, "127.0.0.1")
        .await();
  }

  /** {@code count} GETs from each of {@link #CLIENTS} clients at once: the statuses. */
  private List<Integer> load(int count) throws Exception {
    List<Future<List<Integer>>> clients = new ArrayList<>();
    for (int c = 0; c < CLIENTS; c++) {
      clients.add(OnContext.run(vertx, () -> sequence(count, new ArrayList<>())));
    }
    List<Integer> statuses = new ArrayList<>();
    answered(Future.all(clients), "load(" + count + ")");
    clients.forEach(f -> statuses.addAll(f.result()));
    return statuses;
  }

  /**
   * @return the future's result once complete; an AssertionError naming the requests still
   *     unanswered, with the gateway's log, if it is not within {@link JavaProcess#PATIENCE} (a
   *     hang guard: 100 requests take well under a second on an idle machine)
   */
  private <T> T answered(Future<T> future, String what) {
    try {
      return future.await(JavaProcess.PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new AssertionError(
          what
              + ": requests unanswered after "
              + JavaProcess.PATIENCE
              + ": "
              + pending.values()
              + "\nserved by the instances: "
              + served
              + "\ngateway's state:\n"
              + gatewayState()
              + "\ngateway log:\n"
              + gateway.outputTail(),
          e);
    }
  }

  /** What the gateway says of its calls and the instances, for a failure message. */
  private String gatewayState() {
    try {
      String metrics = given().baseUri(gatewayUrl).get("/_/metrics").asString();
      String calls =
          metrics
              .lines()
              .filter(l -> l.startsWith("okapi_calls_in_flight") || l.startsWith("okapi_module_"))
              .reduce("", (a, b) -> a + b + "\n");
      return calls + given().baseUri(gatewayUrl).get("/_/discovery/health?learned=true").asString();
    } catch (RuntimeException e) {
      return "(not readable: " + e + ")";
    }
  }

  private Future<List<Integer>> sequence(int left, List<Integer> statuses) {
    if (left == 0) {
      return Future.succeededFuture(statuses);
    }
    long id = sent.incrementAndGet();
    pending.put(id, "request " + id + " sent at " + Instant.now());
    return client
        .request(
            new RequestOptions()
                .setMethod(HttpMethod.GET)
                .setAbsoluteURI(gatewayUrl + "/pair/items")
                .putHeader("X-Okapi-Tenant", "diku"))
        .compose(req -> req.send())
        .compose(resp -> resp.body().map(resp.statusCode()))
        .otherwise(-1)
        .compose(
            status -> {
              pending.remove(id);
              statuses.add(status);
              return sequence(left - 1, statuses);
            });
  }

  @Test
  void instanceStoppedUnderLoad_noRequestFails_ejected_takenBackOnReturn() throws Exception {
    assertThat(load(25)).containsOnly(200);
    assertThat(served.get("first").get()).isPositive();
    // stopped in the middle of a run: clients keep sending while it goes
    Future<List<Integer>> during = OnContext.run(vertx, () -> sequence(50, new ArrayList<>()));
    first.close().await();
    List<Integer> after = load(25);
    assertThat(answered(during, "the requests while it stopped"))
        .as("statuses while it stopped")
        .containsOnly(200);
    assertThat(after).as("statuses after it stopped").containsOnly(200);
    String metrics = given().baseUri(gatewayUrl).get("/_/metrics").asString();
    assertThat(metrics)
        .contains(
            "okapi_module_ejections_total{instance=\"http://127.0.0.1:"
                + firstPort
                + "\",module=\"mod-pair-1.0.0\"}");
    String learned =
        given()
            .baseUri(gatewayUrl)
            .get("/_/discovery/health/mod-pair-1.0.0/mod-pair-1.0.0-1?learned=true")
            .asString();
    assertThat(new JsonObject(learned).getJsonObject("learned").getLong("ejections"))
        .as(learned)
        .isPositive();
    // back on its port: taken back within the longest ejection (2 s here)
    int before = served.get("first").get();
    instance("first", firstPort);
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2); // a hang guard
    while (served.get("first").get() == before && System.nanoTime() < deadline) {
      assertThat(load(5)).containsOnly(200);
    }
    assertThat(served.get("first").get())
        .as("requests the returned instance served")
        .isGreaterThan(before);
  }
}
