package io.okapigw.core.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.okapigw.config.Settings;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.Metrics;
import io.okapigw.core.testing.RawClient;
import io.okapigw.core.testing.TestModule;
import io.okapigw.testsupport.Await;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A body read whole (a {@code request-log} handler, and the other types but {@code
 * request-response}) is bounded per request ({@code proxy.buffered-max-body}: 413 naming it) and in
 * total on the node ({@code proxy.buffered-max-total}: 503 with {@code Retry-After} while the room
 * is taken, given back once answered), counted in bytes; a module answer over the bound is a 502,
 * never relayed cut short. (On ac01f53: a fixed 64 MiB per request, no total: six 60 MiB uploads to
 * a gateway with 256 MiB of heap were each answered 200 while the module got cut bodies.)
 */
class BufferedBodyLimitsTest {

  private static final int BOUND = 64 * 1024;

  private final GatewayFixture gateway =
      new GatewayFixture(
          GatewayOptions.from(
              Settings.of(
                  Map.of(
                      "port", "0",
                      "proxy.buffered-max-body", "64KB",
                      "proxy.buffered-max-total", "100KB"))));

  /** What the module got: Content-Length and the bytes of each body. */
  private final List<String> got = new CopyOnWriteArrayList<>();

  private final TestModule module =
      TestModule.start(
          gateway.vertx(),
          router ->
              router
                  .route()
                  .handler(
                      ctx ->
                          ctx.request()
                              .body()
                              .onSuccess(
                                  body -> {
                                    got.add(
                                        ctx.request().getHeader("Content-Length")
                                            + " "
                                            + body.length());
                                    String path = ctx.request().path();
                                    int answer =
                                        path.contains("stop")
                                            ? 1024 * 1024 + 1
                                            : path.contains("big") ? BOUND + 1 : 2;
                                    if (path.contains("stop")) {
                                      ctx.response().putHeader("X-Okapi-Stop", "true");
                                    }
                                    ctx.response().end("x".repeat(answer));
                                  })));

  @AfterEach
  void close() {
    module.close();
    gateway.close();
  }

  private static JsonObject entry(String pattern, String type) {
    return new JsonObject()
        .put("methods", new JsonArray().add("*"))
        .put("pathPattern", pattern)
        .put("type", type)
        .put("permissionsRequired", new JsonArray());
  }

  private void install() {
    gateway.createTenant("diku");
    gateway.install(
        "diku",
        GatewayFixture.module(
            "mod-a-1.0.0",
            "a",
            entry("/log", "request-log"),
            entry("/whole", "request-response-1.0"),
            entry("/big", "request-response-1.0")),
        module.url());
  }

  private double held() {
    return Metrics.value(
        gateway.request().get("/_/metrics").asString(), "okapi_buffered_body_bytes");
  }

  @Test
  void overTheRequestsBound_413NamingIt_withOrWithoutContentLength_theBoundItselfPasses() {
    install();
    gateway
        .tenant("diku")
        .body(new byte[BOUND + 1])
        .post("/log")
        .then()
        .statusCode(413)
        .body(containsString("65536 bytes (64KB, proxy.buffered-max-body)"));
    gateway
        .tenant("diku")
        .body(new java.io.ByteArrayInputStream(new byte[BOUND + 1])) // sent chunked
        .post("/log")
        .then()
        .statusCode(413)
        .body(containsString("proxy.buffered-max-body"));
    assertThat(got).as("the module got no part of a refused body").isEmpty();

    gateway.tenant("diku").body(new byte[BOUND]).post("/log").then().statusCode(200);
    Await.until(() -> !got.isEmpty(), "the module got the body");
    assertThat(got).containsExactly(BOUND + " " + BOUND);
  }

  @Test
  void nodesRoomTaken_503WithRetryAfter_givenBackOnceAnswered() throws Exception {
    install();
    int port = gateway.gateway().port();
    try (RawClient first = RawClient.connect(port)) {
      first.head("POST", "/log", BOUND).body(1000);
      Await.until(() -> held() == BOUND, "the first body's room taken");

      gateway
          .tenant("diku")
          .body(new byte[BOUND])
          .post("/log")
          .then()
          .statusCode(503)
          .header("Retry-After", equalTo("1"))
          .body(containsString("proxy.buffered-max-total"));
      gateway
          .tenant("diku")
          .body(new byte[30 * 1024])
          .post("/log")
          .then()
          .statusCode(200); // a body that fits in what is left

      first.body(BOUND - 1000);
      RawClient.Response answer = first.response();
      assertThat(answer.status()).isEqualTo(200);
    }
    Await.until(() -> held() == 0, "all room given back");
    gateway.tenant("diku").body(new byte[BOUND]).post("/log").then().statusCode(200);
    Await.until(() -> got.size() == 3, "the module got the three bodies taken");
    assertThat(got)
        .containsExactlyInAnyOrder(
            30 * 1024 + " " + 30 * 1024, BOUND + " " + BOUND, BOUND + " " + BOUND);
  }

  @Test
  void moduleAnswerOverTheBound_502_neverRelayedCutShort() {
    install();
    JsonObject stopping = GatewayFixture.module("mod-s-1.0.0", "s", entry("/stop", "headers"));
    stopping.put(
        "filters",
        new JsonArray()
            .add(
                new JsonObject()
                    .put("methods", new JsonArray().add("*"))
                    .put("pathPattern", "/stop")
                    .put("phase", "pre")
                    .put("type", "request-response")));
    gateway.install("diku", stopping, module.url());
    gateway
        .tenant("diku")
        .get("/stop")
        .then()
        .statusCode(502) // a pre filter's answer ending the pipeline, over 1 MiB
        .body(containsString("over 1048576 bytes"));

    gateway.tenant("diku").body("a").post("/whole").then().statusCode(200).body(equalTo("xx"));
    gateway
        .tenant("diku")
        .body("a")
        .post("/big")
        .then()
        .statusCode(502)
        .body(containsString("proxy.buffered-max-body"));
  }
}
