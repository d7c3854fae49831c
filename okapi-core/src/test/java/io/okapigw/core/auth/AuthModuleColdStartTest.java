package io.okapigw.core.auth;

import static io.okapigw.core.testing.GatewayFixture.authModule;
import static io.okapigw.core.testing.GatewayFixture.handler;
import static io.okapigw.core.testing.GatewayFixture.module;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;

import com.github.benmanes.caffeine.cache.Ticker;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.TestModule;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A freshly started auth module whose first decisions take longer than {@code auth.timeout} (a cold
 * FOLIO auth chain: mod-authtoken's own look-ups to cold modules): they are answered, as behind
 * Okapi, within {@code auth.cold-timeout} (default 60 s); once it has answered in time, a hang
 * costs each request {@code auth.timeout} again, and one hung from its start meets the cold bound,
 * then its breaker. The module is slow by its own timer (1 s, more than the 300 ms {@code
 * auth.timeout}) and moves the node's fake clock as far, so the gateway sees the same time.
 */
class AuthModuleColdStartTest {

  private static final Duration TIMEOUT = Duration.ofMillis(300);
  private static final long SLOW_MILLIS = 1_000;

  private final AtomicLong nanos = new AtomicLong();
  private final Ticker ticker = nanos::get;

  @RegisterExtension
  final GatewayFixture gw =
      new GatewayFixture(
          GatewayOptions.defaults(0).withAuth(AuthOptions.defaults().withTimeout(TIMEOUT)), ticker);

  private final AtomicInteger authCalls = new AtomicInteger();
  private final AtomicInteger slowCalls = new AtomicInteger(2);
  private final AtomicBoolean hung = new AtomicBoolean();

  @BeforeEach
  void start() {
    TestModule auth =
        TestModule.start(
            gw.vertx(),
            router ->
                router
                    .route()
                    .handler(
                        ctx -> {
                          authCalls.incrementAndGet();
                          if (hung.get()) {
                            return;
                          }
                          Runnable grant =
                              () ->
                                  ctx.response()
                                      .setStatusCode(202)
                                      .putHeader("X-Okapi-User-Id", "user")
                                      .end();
                          if (slowCalls.getAndDecrement() > 0) {
                            nanos.addAndGet(Duration.ofMillis(SLOW_MILLIS).toNanos());
                            gw.vertx().setTimer(SLOW_MILLIS, t -> grant.run());
                          } else {
                            grant.run();
                          }
                        }));
    TestModule items =
        TestModule.start(gw.vertx(), router -> router.route().handler(ctx -> ctx.end("item")));
    gw.addModule(authModule("mod-auth-1.0.0"));
    gw.deploy("mod-auth-1.0.0", auth.url());
    gw.addModule(module("mod-items-1.0.0", "items", handler("GET", "/items/{id}", "items.get")));
    gw.deploy("mod-items-1.0.0", items.url());
    gw.createTenant("diku");
    gw.enable("diku", "mod-auth-1.0.0");
    gw.enable("diku", "mod-items-1.0.0");
  }

  private void get(String token, int status) {
    gw.tenant("diku").header("X-Okapi-Token", token).get("/items/1").then().statusCode(status);
  }

  @Test
  void coldAuthModule_firstDecisionsSlowerThanTheAuthTimeout_answered_thenAHangCostsTheTimeout() {
    get("first", 200);
    get("second", 200);
    assertThat(authCalls).as("each first decision was the module's, slow").hasValue(2);

    get("third", 200);
    nanos.addAndGet(AuthOptions.WARM_UP.defaultValue().toNanos());
    hung.set(true);
    long start = System.nanoTime();
    gw.tenant("diku")
        .header("X-Okapi-Token", "fourth")
        .get("/items/1")
        .then()
        .statusCode(503)
        .body(containsString("within " + TIMEOUT.toMillis() + " ms"));
    assertThat(Duration.ofNanos(System.nanoTime() - start))
        .as("warmed up: a hang costs auth.timeout, not auth.cold-timeout (60 s)")
        .isLessThan(Duration.ofSeconds(15));
    assertThat(authCalls).hasValue(4);
  }
}
