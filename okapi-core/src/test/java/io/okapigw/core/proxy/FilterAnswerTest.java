package io.okapigw.core.proxy;

import static io.okapigw.core.testing.GatewayFixture.authModule;
import static io.okapigw.core.testing.GatewayFixture.handler;
import static io.okapigw.core.testing.GatewayFixture.module;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.config.Settings;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.RawClient;
import io.okapigw.core.testing.RawClient.Head;
import io.okapigw.core.testing.TestModule;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Answers the gateway reads itself, the auth filter's and the pre and post filters': one that stops
 * midway is given up after {@code proxy.idle-timeout} (3 s here: every other module call must
 * answer within it, on a busy machine too) and its connection closed, never left busy nor pooled
 * half-read; a long refusal is cut, not buffered whole. The client header {@code X-Stall:
 * auth|pre|post|long} picks the module that misbehaves; pools of one connection show any connection
 * left behind.
 */
class FilterAnswerTest {

  private static final int DECLARED = 10_000;

  private final BlockingQueue<CompletableFuture<Void>> stalled = new LinkedBlockingQueue<>();
  private GatewayFixture gw;
  private TestModule filters;

  @BeforeEach
  void start() {
    gw =
        new GatewayFixture(
            GatewayOptions.from(
                Settings.of(
                    Map.of(
                        "proxy.max-connections",
                        "1",
                        "proxy.idle-timeout",
                        "3s",
                        // the stalled auth module is past its warm-up: its call gets 3 s, not
                        // auth.cold-timeout
                        "auth.warm-up",
                        "0s"))));
    gw.createTenant("diku");
    TestModule items =
        TestModule.start(
            gw.vertx(), router -> router.route().handler(ctx -> ctx.response().end("item")));
    TestModule auth =
        TestModule.start(
            gw.vertx(), router -> router.route().handler(ctx -> answer(ctx, "auth", 202)));
    filters =
        TestModule.start(
            gw.vertx(),
            router ->
                router
                    .route()
                    .handler(
                        ctx ->
                            answer(
                                ctx,
                                ctx.request().getHeader("X-Okapi-Filter").split(" ")[0],
                                200)));
    gw.install(
        "diku", module("mod-items-1.0.0", "items", handler("GET", "/items/{id}")), items.url());
    gw.install("diku", authModule("mod-auth-1.0.0"), auth.url());
    gw.install(
        "diku",
        new JsonObject()
            .put("id", "mod-filters-1.0.0")
            .put("filters", new JsonArray().add(filter("pre")).add(filter("post"))),
        filters.url());
  }

  @AfterEach
  void stop() {
    gw.close();
  }

  @Test
  void auth_answerStopsMidBody_503AfterIdleTimeoutConnectionClosedPoolServesNext()
      throws IOException {
    assertThat(get("auth").status()).isEqualTo(503);
    assertStalledConnectionClosed();
    assertServesNext();
  }

  @Test
  void auth_refusalLongerThanKept_statusRelayedBodyNotCutAndPoolServesNext() throws IOException {
    try (RawClient client = RawClient.connect(gw.gateway().port())) {
      Head head = client.headWith("GET", "/items/1", "X-Stall: long").readHead();
      assertThat(head.status()).isEqualTo(401);
      // the module's 1 MiB body was once relayed cut to 64 KiB under a matching Content-Length
      assertThat(client.readText((int) head.contentLength()))
          .contains("longer than the 64 KiB the gateway relays");
    }
    assertServesNext();
  }

  @Test
  void pre_answerStopsMidBody_504NamingFilterConnectionClosedPoolServesNext() throws IOException {
    try (RawClient client = RawClient.connect(gw.gateway().port())) {
      Head head = client.headWith("GET", "/items/1", "X-Stall: pre").readHead();
      assertThat(head.status()).isEqualTo(504);
      assertThat(client.readText((int) head.contentLength())).contains("mod-filters-1.0.0");
    }
    assertStalledConnectionClosed();
    assertServesNext();
  }

  @Test
  void post_answerStopsMidBody_clientAnsweredConnectionClosedPoolServesNext() throws IOException {
    assertThat(get("post").status()).isEqualTo(200);
    assertStalledConnectionClosed();
    assertServesNext();
  }

  /**
   * Answers {@code status}, or, when the client's X-Stall names {@code role}, declares {@value
   * #DECLARED} bytes, sends 4 and stops ("long": a 1 MiB refusal).
   */
  private void answer(RoutingContext ctx, String role, int status) {
    String stall = ctx.request().getHeader("X-Stall");
    if ("long".equals(stall) && "auth".equals(role)) {
      ctx.response().setStatusCode(401).end(Buffer.buffer(new byte[1024 * 1024]));
    } else if (role.equals(stall)) {
      CompletableFuture<Void> closed = new CompletableFuture<>();
      ctx.request().connection().closeHandler(v -> closed.complete(null));
      stalled.add(closed);
      ctx.response().setStatusCode(status).putHeader("Content-Length", "" + DECLARED).write("part");
    } else {
      ctx.response().setStatusCode(status).end();
    }
  }

  private Head get(String stall) throws IOException {
    try (RawClient client = RawClient.connect(gw.gateway().port())) {
      return client.headWith("GET", "/items/1", "X-Stall: " + stall).readHead();
    }
  }

  private void assertStalledConnectionClosed() {
    try {
      CompletableFuture<Void> closed =
          stalled.poll(RawClient.TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
      assertThat(closed).as("a module stalled").isNotNull();
      closed.get(RawClient.TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      throw new AssertionError("the stalled module's connection is still open: " + e, e);
    }
  }

  private void assertServesNext() throws IOException {
    try (RawClient client = RawClient.connect(gw.gateway().port())) {
      Head head = client.head("GET", "/items/1", -1).readHead();
      assertThat(head.status()).isEqualTo(200);
      client.readBody(4);
    }
    assertThat(filters.drain()).isNotEmpty();
  }

  private static JsonObject filter(String phase) {
    return new JsonObject()
        .put("methods", new JsonArray().add("GET"))
        .put("pathPattern", "/items*")
        .put("phase", phase)
        .put("type", "headers");
  }
}
