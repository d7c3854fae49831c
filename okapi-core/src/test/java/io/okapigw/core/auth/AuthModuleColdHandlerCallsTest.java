package io.okapigw.core.auth;

import static io.okapigw.core.testing.GatewayFixture.authModule;
import static io.okapigw.core.testing.GatewayFixture.handler;
import static io.okapigw.core.testing.GatewayFixture.module;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;

import com.github.benmanes.caffeine.cache.Ticker;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.testing.GatewayFixture;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The handler calls to a cold auth module ({@code /token/sign} that mod-login makes through the
 * gateway during a login, {@code /authn/login}) get the cold budget as its auth-filter calls do: in
 * its {@code auth.warm-up} a handler call may wait {@code auth.cold-timeout}, not {@code
 * auth.handler-timeout}. Behind our gateway a cold mod-authtoken beside a loaded CPU took longer
 * than the 10 s handler timeout to sign a login's token. After the warm-up a hung handler costs
 * {@code auth.handler-timeout} again. The module is slow by its own timer (1 s, more than the 300
 * ms handler timeout) and moves the node's fake clock as far, so the gateway sees the same time.
 */
class AuthModuleColdHandlerCallsTest {

  private static final String AUTH = "mod-authtoken-1.0.0";
  private static final Duration HANDLER_TIMEOUT = Duration.ofMillis(300);
  private static final long SLOW_MILLIS = 1_000;

  private final AtomicLong nanos = new AtomicLong();
  private final Ticker ticker = nanos::get;

  @RegisterExtension
  final GatewayFixture gw =
      new GatewayFixture(
          GatewayOptions.defaults(0)
              .withAuth(AuthOptions.defaults().withHandlerTimeout(HANDLER_TIMEOUT)),
          ticker);

  private final AtomicInteger signs = new AtomicInteger();
  private final AtomicInteger slowSigns = new AtomicInteger(2);
  private final AtomicBoolean hung = new AtomicBoolean();

  @BeforeEach
  void start() {
    HttpServer auth =
        gw.vertx().createHttpServer().requestHandler(this::authModuleAnswers).listen(0).await();
    gw.addModule(
        authModule(AUTH)
            .put(
                "provides",
                module(AUTH, "authtoken2", handler("POST", "/token/sign"))
                    .getJsonArray("provides")));
    gw.deploy(AUTH, "http://127.0.0.1:" + auth.actualPort());
    gw.createTenant("diku");
    gw.enable("diku", AUTH);
  }

  /**
   * The auth filter grants at once; {@code /token/sign} answers 201, the first two after {@value
   * #SLOW_MILLIS} ms; it hangs (accepts, never answers) when told.
   */
  private void authModuleAnswers(HttpServerRequest req) {
    if (req.getHeader("X-Okapi-Module-Permissions") != null) {
      req.response().setStatusCode(202).putHeader("X-Okapi-User-Id", "user").end();
      return;
    }
    signs.incrementAndGet();
    if (hung.get()) {
      return;
    }
    if (slowSigns.getAndDecrement() > 0) {
      nanos.addAndGet(Duration.ofMillis(SLOW_MILLIS).toNanos());
      gw.vertx().setTimer(SLOW_MILLIS, t -> req.response().setStatusCode(201).end("signed"));
    } else {
      req.response().setStatusCode(201).end("signed");
    }
  }

  private io.restassured.response.ValidatableResponse sign() {
    return gw.tenant("diku")
        .header("X-Okapi-Token", "module-token")
        .contentType("application/json")
        .body("{\"payload\":{\"sub\":\"diku_admin\"}}")
        .post("/token/sign")
        .then();
  }

  @Test
  void coldAuthModule_handlerCallsSlowerThanTheHandlerTimeout_answered_thenAHangCostsIt() {
    sign().statusCode(201);
    sign().statusCode(201);
    assertThat(signs).as("both slow, past auth.handler-timeout").hasValue(2);

    nanos.addAndGet(AuthOptions.WARM_UP.defaultValue().toNanos());
    hung.set(true);
    long start = System.nanoTime();
    sign().statusCode(504).body(containsString("within " + HANDLER_TIMEOUT.toMillis() + " ms"));
    assertThat(Duration.ofNanos(System.nanoTime() - start))
        .as("warmed up: a hang costs auth.handler-timeout, not auth.cold-timeout (60 s)")
        .isLessThan(Duration.ofSeconds(15));
  }
}
