package io.okapigw.core.auth;

import static io.okapigw.core.testing.GatewayFixture.authModule;
import static io.okapigw.core.testing.GatewayFixture.handler;
import static io.okapigw.core.testing.GatewayFixture.module;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import com.github.benmanes.caffeine.cache.Ticker;
import io.okapigw.cache.AuthCacheOptions;
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
 * An auth module that stops answering (a process frozen, a deadlock) behind a gateway with
 * stale-if-error: expired decisions are served stale after {@code auth.timeout}, not after {@code
 * proxy.idle-timeout} (60 s), and once the breaker is open at once, without asking the module but
 * once per probe interval. The cache and the breakers run on a fake ticker; the auth timeout is
 * real time.
 */
class AuthModuleHungTest {

  private static final Duration TTL = Duration.ofSeconds(60);
  private static final Duration PROBE_INTERVAL = Duration.ofSeconds(10);
  private static final Duration COLD_TIMEOUT = Duration.ofSeconds(2);

  private final AtomicLong nanos = new AtomicLong();
  private final Ticker ticker = nanos::get;

  @RegisterExtension
  final GatewayFixture gw =
      new GatewayFixture(
          GatewayOptions.defaults(0)
              .withAuthCache(
                  AuthCacheOptions.defaults().withTtl(TTL).withStaleIfError(Duration.ofMinutes(10)))
              .withAuth(
                  AuthOptions.defaults()
                      .withTimeout(Duration.ofSeconds(1))
                      .withColdTimeout(COLD_TIMEOUT)
                      .withWarmUp(Duration.ofSeconds(30))
                      .withBreaker(2, PROBE_INTERVAL)),
          ticker);

  private final AtomicInteger authCalls = new AtomicInteger();
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
                          if (!hung.get()) {
                            ctx.response()
                                .setStatusCode(202)
                                .putHeader("X-Okapi-User-Id", "user")
                                .end();
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

  /** Every token's grant cached, then the module hangs and the grants expire. */
  private void cachedThenHung(String... tokens) {
    for (String token : tokens) {
      get(token, 200);
    }
    assertThat(authCalls).hasValue(tokens.length);
    hung.set(true);
    nanos.addAndGet(TTL.plusSeconds(1).toNanos());
  }

  @Test
  void authModuleHangs_expiredDecisionServedStaleAfterTheAuthTimeout() {
    cachedThenHung("t1");
    long start = System.nanoTime();

    get("t1", 200);

    assertThat(Duration.ofNanos(System.nanoTime() - start))
        .as("answered after auth.timeout (1 s), long before proxy.idle-timeout (60 s)")
        .isLessThan(Duration.ofSeconds(30));
    assertThat(authCalls).as("the module was asked").hasValue(2);
    gw.request().get("/_/proxy/auth-cache").then().statusCode(200).body("staleServed", equalTo(1));
  }

  @Test
  void authModuleHangs_breakerOpens_expiredDecisionsServedWithoutAskingIt_butOneProbe() {
    cachedThenHung("t1", "t2", "t3", "t4", "t5");
    get("t1", 200);
    get("t2", 200);
    assertThat(authCalls).as("two calls timed out: the breaker opens").hasValue(7);

    long start = System.nanoTime();
    get("t3", 200);
    get("t4", 200);
    assertThat(authCalls).as("not asked while open").hasValue(7);
    assertThat(Duration.ofNanos(System.nanoTime() - start))
        .as("served without waiting for the auth timeout")
        .isLessThan(Duration.ofSeconds(30));

    nanos.addAndGet(PROBE_INTERVAL.toNanos());
    get("t5", 200);
    assertThat(authCalls).as("one probe after the interval").hasValue(8);
    get("t3", 200);
    assertThat(authCalls).as("open again after the probe timed out").hasValue(8);

    hung.set(false);
    nanos.addAndGet(PROBE_INTERVAL.toNanos());
    get("t4", 200);
    get("t3", 200);
    assertThat(authCalls).as("the probe answered: closed, each asks again").hasValue(10);
  }

  @Test
  void authModuleHangs_breakerOpen_requestWithoutACachedDecisionRefusedAtOnce() {
    cachedThenHung("t1", "t2");
    get("t1", 200);
    get("t2", 200);

    gw.tenant("diku")
        .header("X-Okapi-Token", "new")
        .get("/items/1")
        .then()
        .statusCode(503)
        .body(containsString("did not answer 2 auth calls in a row"));
    assertThat(authCalls).hasValue(4);
  }

  @Test
  void authModuleHungFromItsStart_eachCallMeetsTheColdTimeout_thenTheBreakerRefusesAtOnce() {
    hung.set(true);
    long start = System.nanoTime();
    get("t1", 503);
    get("t2", 503);
    assertThat(Duration.ofNanos(System.nanoTime() - start))
        .as("two calls bounded by auth.cold-timeout (2 s each), not proxy.idle-timeout (60 s)")
        .isLessThan(Duration.ofSeconds(30));
    assertThat(authCalls).hasValue(2);

    gw.tenant("diku")
        .header("X-Okapi-Token", "t3")
        .get("/items/1")
        .then()
        .statusCode(503)
        .body(containsString("did not answer 2 auth calls in a row"));
    assertThat(authCalls).as("the breaker is open: not asked").hasValue(2);
  }
}
