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
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Logins (any handler call to the module that provides the tenant's auth filter) under its breaker:
 * while it is open they get 503 with {@code Retry-After} at once, never reaching the module, and a
 * login the module does not answer within {@code auth.handler-timeout} counts for the breaker as an
 * auth-filter call does. Whether the module was reached is counted (its connections and requests),
 * not timed. The cache and the breaker run on a fake ticker; the two auth timeouts are real time,
 * waited out where a call must time out (a module that never answers).
 */
class AuthModuleHandlerCallsTest {

  private static final String AUTH = "mod-authtoken-1.0.0";
  private static final Duration TTL = Duration.ofSeconds(60);
  private static final Duration PROBE_INTERVAL = Duration.ofSeconds(10);

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
                      .withTimeout(Duration.ofSeconds(2))
                      .withWarmUp(Duration.ZERO) // the module hangs past its warm-up
                      .withHandlerTimeout(Duration.ofSeconds(2))
                      .withBreaker(2, PROBE_INTERVAL)),
          ticker);

  private final AtomicInteger connections = new AtomicInteger();
  private final AtomicInteger logins = new AtomicInteger();
  private final AtomicInteger filterCalls = new AtomicInteger();
  private final AtomicBoolean filterHung = new AtomicBoolean();
  private final AtomicBoolean loginHung = new AtomicBoolean();

  @BeforeEach
  void start() {
    HttpServer auth =
        gw.vertx()
            .createHttpServer()
            .connectionHandler(c -> connections.incrementAndGet())
            .requestHandler(this::authModuleAnswers)
            .listen(0, "127.0.0.1")
            .await();
    TestModule items =
        TestModule.start(gw.vertx(), router -> router.route().handler(ctx -> ctx.end("item")));
    gw.addModule(
        authModule(AUTH)
            .put(
                "provides",
                module(AUTH, "login", handler("POST", "/authn/login")).getJsonArray("provides")));
    gw.deploy(AUTH, "http://127.0.0.1:" + auth.actualPort());
    gw.addModule(module("mod-items-1.0.0", "items", handler("GET", "/items/{id}", "items.get")));
    gw.deploy("mod-items-1.0.0", items.url());
    gw.createTenant("diku");
    gw.enable("diku", AUTH);
    gw.enable("diku", "mod-items-1.0.0");
  }

  /**
   * The auth filter grants, the login answers 201; each hangs (accepts, never answers) when told. A
   * filter call has the request's path too; it is the one with {@code X-Okapi-Module-Permissions}.
   */
  private void authModuleAnswers(HttpServerRequest req) {
    if (req.getHeader("X-Okapi-Module-Permissions") == null) {
      logins.incrementAndGet();
      if (!loginHung.get()) {
        req.response().setStatusCode(201).end(new JsonObject().put("ok", true).encode());
      }
      return;
    }
    filterCalls.incrementAndGet();
    if (!filterHung.get()) {
      req.response().setStatusCode(202).putHeader("X-Okapi-User-Id", "user").end();
    }
  }

  private void get(String token, int status) {
    gw.tenant("diku").header("X-Okapi-Token", token).get("/items/1").then().statusCode(status);
  }

  private io.restassured.response.ValidatableResponse login() {
    return gw.tenant("diku")
        .contentType("application/json")
        .body("{\"username\":\"u\",\"password\":\"p\"}")
        .post("/authn/login")
        .then();
  }

  private void assertRefusedAtOnce() {
    int connectionsBefore = connections.get();
    int loginsBefore = logins.get();

    login()
        .statusCode(503)
        .header("Retry-After", equalTo("10"))
        .body(containsString("did not answer 2 auth calls in a row"));

    assertThat(logins).as("the login did not reach the module").hasValue(loginsBefore);
    assertThat(connections).as("no connection to the module").hasValue(connectionsBefore);
  }

  @Test
  void breakerOpenedByFilterCalls_login503WithRetryAfterAtOnce_moduleNotReached() {
    login().statusCode(201);
    get("t1", 200);
    get("t2", 200);
    filterHung.set(true);
    loginHung.set(true);
    nanos.addAndGet(TTL.plusSeconds(1).toNanos());
    get("t1", 200);
    get("t2", 200);
    assertThat(filterCalls).as("two filter calls timed out: the breaker opens").hasValue(5);

    assertRefusedAtOnce();

    gw.tenant("diku")
        .header("X-Okapi-Token", "t1")
        .get("/items/1")
        .then()
        .statusCode(200)
        .body(equalTo("item"));
    assertThat(filterCalls).as("filter calls not made either").hasValue(5);
  }

  @Test
  void loginsTimedOut_openTheBreaker_forLoginsAndFilterCalls_aProbeAnsweredClosesIt() {
    login().statusCode(201);
    loginHung.set(true);

    login().statusCode(504);
    login().statusCode(504);
    assertThat(logins).as("two logins waited out auth.handler-timeout").hasValue(3);

    assertRefusedAtOnce();
    int filterCallsBefore = filterCalls.get();
    gw.tenant("diku")
        .header("X-Okapi-Token", "new")
        .get("/items/1")
        .then()
        .statusCode(503)
        .header("Retry-After", equalTo("10"));
    assertThat(filterCalls).as("the filter is not asked either").hasValue(filterCallsBefore);

    loginHung.set(false);
    nanos.addAndGet(PROBE_INTERVAL.toNanos());
    login().statusCode(201);
    login().statusCode(201);
    assertThat(logins).as("the probe answered: closed").hasValue(5);
  }
}
