package io.okapigw.core.proxy;

import static io.okapigw.core.testing.GatewayFixture.handler;
import static io.okapigw.core.testing.GatewayFixture.module;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.testing.GatewayFixture;
import io.vertx.core.http.HttpServer;
import io.vertx.core.net.NetServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A request whose connection breaks before any answer goes to another instance only when that is
 * safe: a GET (idempotent, no body) is sent again, once; a POST is not (the module may have acted
 * on it), nor a request whose body was sent, nor a PUT unless configured. One instance takes the
 * request and closes the connection without a word; the other answers. Latency estimates are
 * forgotten within a millisecond, so that both instances get calls (a breaking instance slower to
 * break than the other to answer would otherwise be left alone, never ejected).
 */
class ResendTest {

  @RegisterExtension
  final GatewayFixture gw = new GatewayFixture(latencyForgotten(GatewayOptions.defaults(0)));

  private final AtomicInteger broken = new AtomicInteger();
  private final AtomicInteger answered = new AtomicInteger();
  private String breakingUrl;

  @BeforeEach
  void start() {
    NetServer breaking =
        gw.vertx()
            .createNetServer()
            .connectHandler(
                socket ->
                    socket.handler(
                        bytes -> {
                          if (bytes.toString().contains("HTTP/1.1")) {
                            broken.incrementAndGet();
                          }
                          socket.close();
                        }))
            .listen(0, "127.0.0.1")
            .await();
    HttpServer good =
        gw.vertx()
            .createHttpServer()
            .requestHandler(
                req ->
                    req.body()
                        .onSuccess(
                            body -> {
                              answered.incrementAndGet();
                              req.response().end("good");
                            }))
            .listen(0, "127.0.0.1")
            .await();
    gw.createTenant("diku");
    gw.addModule(module("mod-brk-1.0.0", "brk", handler("*", "/brk/*")));
    breakingUrl = "http://127.0.0.1:" + breaking.actualPort();
    gw.deploy("mod-brk-1.0.0", breakingUrl);
    gw.deploy("mod-brk-1.0.0", "http://127.0.0.1:" + good.actualPort());
    gw.enable("diku", "mod-brk-1.0.0");
  }

  private static final String EJECTED = "okapi_module_ejections_total{";

  @Test
  void get_resetBeforeAnyAnswer_sentAgainElsewhere() {
    List<Integer> statuses = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      statuses.add(gw.tenant("diku").get("/brk/items").statusCode());
    }
    assertThat(statuses).containsOnly(200);
    assertThat(broken.get()).as("requests the breaking instance took").isPositive();
    assertThat(answered.get()).isEqualTo(4);
  }

  private static GatewayOptions latencyForgotten(GatewayOptions options) {
    return options.withUpstream(
        options
            .upstream()
            .withBalance(options.upstream().balance().withLatencyDecay(Duration.ofMillis(1))));
  }

  @Test
  void brokenConnections_countAsFailures_instanceEjectedAfterFive() {
    for (int i = 0; i < 100 && !gw.request().get("/_/metrics").asString().contains(EJECTED); i++) {
      gw.tenant("diku").get("/brk/items").then().statusCode(200);
    }
    assertThat(broken.get())
        .as("requests the breaking instance took before its ejection")
        .isEqualTo(5);
    assertThat(gw.request().get("/_/metrics").asString())
        .contains(
            "okapi_module_ejections_total{instance=\""
                + breakingUrl
                + "\",module=\"mod-brk-1.0.0\"} 1.0")
        .contains("okapi_module_retries_total{module=\"mod-brk-1.0.0\"} 5.0");
  }

  @Test
  void postWithBody_resetAfterItWasSent_neverSentAgain() {
    List<Integer> statuses = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      statuses.add(gw.tenant("diku").body("{\"loan\":1}").post("/brk/loans").statusCode());
    }
    long failed = statuses.stream().filter(s -> s == 502).count();
    assertThat(failed).as("statuses " + statuses).isPositive().isEqualTo(broken.get());
    assertThat(answered.get()).isEqualTo(4 - failed);
  }

  @Test
  void postWithoutBody_andPut_notIdempotent_neverSentAgain() {
    List<Integer> statuses = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      statuses.add(gw.tenant("diku").post("/brk/renew").statusCode());
      statuses.add(gw.tenant("diku").put("/brk/renew").statusCode());
    }
    long failed = statuses.stream().filter(s -> s == 502).count();
    assertThat(failed).as("statuses " + statuses).isPositive().isEqualTo(broken.get());
    assertThat(answered.get()).isEqualTo(8 - failed);
  }
}
