package io.okapigw.authtoken.login;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.authtoken.MutableClock;
import io.okapigw.authtoken.TestModule;
import io.okapigw.authtoken.http.OkapiHeaders;
import io.okapigw.authtoken.throttle.LoginThrottleOptions;
import io.okapigw.config.Settings;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Login guessing is throttled after FOLIO's mod-login (5 failed logins within 10 minutes lock; here
 * a user name from one client address, for 10 minutes, not until an administrator reactivates it),
 * a user name from many addresses and an address guessing names at higher thresholds, without
 * locking out those who log in from there; the address seen through trusted proxies only. One
 * user's guesses are checked one at a time: the rest are answered 429 with {@code Retry-After} at
 * once, without hashing.
 */
@ExtendWith(VertxExtension.class)
class LoginThrottleHttpTest {
  @TempDir Path dir;
  private final MutableClock clock = MutableClock.ofNow();
  private TestModule module;

  @BeforeEach
  void setUp(Vertx vertx) {
    module = TestModule.deploy(vertx, TestModule.options(dir), clock);
    module.createUser("alice", "correct horse", List.of());
    module.createUser("bob", "battery staple", List.of());
  }

  @AfterEach
  void tearDown() {
    module.undeploy();
  }

  private Response login(String username, String password, String client) {
    return login(TestModule.TENANT, username, password, client);
  }

  /** A login through the gateway from {@code client}, as the gateway passes it on. */
  private Response login(String tenant, String username, String password, String client) {
    return module
        .request(tenant)
        .header("X-Okapi-request-ip", client)
        .contentType(ContentType.JSON)
        .body(new JsonObject().put("username", username).put("password", password).encode())
        .post("/authn/login");
  }

  /** The module again, on the same store, trusting other proxies. */
  private void redeploy(Vertx vertx, String trustedProxies) {
    module.undeploy();
    LoginThrottleOptions throttle =
        LoginThrottleOptions.from(Settings.of(Map.of("login.trusted-proxies", trustedProxies)));
    module = TestModule.deploy(vertx, TestModule.options(dir).withLoginThrottle(throttle), clock);
  }

  /**
   * A login through a load balancer at 10.0.0.9, then the gateway: the balancer appended the
   * client's address to {@code X-Forwarded-For}, the gateway wrote its own peer, the balancer.
   */
  private Response viaBalancer(String username, String password, String forwardedFor) {
    return module
        .request(TestModule.TENANT)
        .header("X-Forwarded-For", forwardedFor)
        .header("X-Okapi-request-ip", "10.0.0.9")
        .contentType(ContentType.JSON)
        .body(new JsonObject().put("username", username).put("password", password).encode())
        .post("/authn/login");
  }

  @Test
  void fiveFailures_lockTheUserNameFromThatClientTenMinutes_429WithRetryAfter_othersUnaffected() {
    for (int i = 0; i < 5; i++) {
      login("alice", "guess" + i, "10.0.0.1").then().statusCode(422);
    }
    Response locked = login("alice", "correct horse", "10.0.0.1");
    assertThat(locked.statusCode()).isEqualTo(429);
    assertThat(locked.asString()).contains("alice");
    assertThat(Long.parseLong(locked.header("Retry-After"))).isBetween(1L, 600L);
    login("bob", "battery staple", "10.0.0.1").then().statusCode(201);
    login("alice", "correct horse", "10.0.0.2").then().statusCode(201);
    clock.advance(Duration.ofMinutes(9));
    login("alice", "correct horse", "10.0.0.1").then().statusCode(429);
    clock.advance(Duration.ofMinutes(1).plusSeconds(1));
    login("alice", "correct horse", "10.0.0.1")
        .then()
        .statusCode(201)
        .header(OkapiHeaders.TOKEN, org.hamcrest.Matchers.notNullValue());
  }

  @Test
  void failuresOlderThanTheWindow_forgotten_andASuccessResetsTheCount() {
    for (int i = 0; i < 4; i++) {
      login("alice", "guess" + i, "10.0.0.1").then().statusCode(422);
    }
    login("alice", "correct horse", "10.0.0.1").then().statusCode(201);
    for (int i = 0; i < 4; i++) {
      login("alice", "guess" + i, "10.0.0.1").then().statusCode(422);
    }
    clock.advance(Duration.ofMinutes(10).plusSeconds(1));
    login("alice", "guess", "10.0.0.1").then().statusCode(422);
    login("alice", "correct horse", "10.0.0.1").then().statusCode(201);
  }

  /**
   * The finding: 100 failed logins for made-up names from one address locked every login from it,
   * another tenant's super_admin too, for 10 minutes: behind a NAT one guesser locked out everyone.
   * Now those who logged in from there go on doing so; the guesser, and anyone new to the address,
   * get the same 429 whether the user name exists or not.
   */
  @Test
  void madeUpNamesFromOneAddress_lockOutNoUserWhoLogsInThere_existenceNotTold() {
    module.createUser("supertenant", "super_admin", "admin", List.of());
    login("alice", "correct horse", "6.6.6.6").then().statusCode(201);
    login("supertenant", "super_admin", "admin", "6.6.6.6").then().statusCode(201);
    for (int i = 0; i < 100; i++) {
      login("nobody" + i, "guess", "6.6.6.6").then().statusCode(422);
    }
    login("alice", "correct horse", "6.6.6.6").then().statusCode(201);
    login("supertenant", "super_admin", "admin", "6.6.6.6").then().statusCode(201);
    Response madeUp = login("nobody-else", "guess", "6.6.6.6");
    Response newHere = login("bob", "guess", "6.6.6.6");
    assertThat(madeUp.statusCode()).isEqualTo(429);
    assertThat(madeUp.header("Retry-After")).isNotNull();
    assertThat(newHere.statusCode()).isEqualTo(429);
    assertThat(newHere.asString()).isEqualTo(madeUp.asString());
    login("bob", "battery staple", "7.7.7.7").then().statusCode(201);
  }

  /**
   * Behind a load balancer every login reached the module from one address (the balancer's, which
   * the gateway writes into {@code X-Okapi-request-ip}): one guesser locked out all. With the
   * balancer trusted, each client counts by the address it appended to {@code X-Forwarded-For}.
   */
  @Test
  void behindATrustedLoadBalancer_eachClientCountsByItsOwnAddress(Vertx vertx) {
    redeploy(vertx, "127.0.0.0/8,::1,10.0.0.9");
    for (int i = 0; i < 100; i++) {
      viaBalancer("nobody" + i, "guess", "6.6.6.6").then().statusCode(422);
    }
    viaBalancer("nobody", "guess", "5.5.5.5, 6.6.6.6").then().statusCode(429);
    viaBalancer("bob", "battery staple", "7.7.7.7").then().statusCode(201);
  }

  /**
   * From a peer that is no trusted proxy, {@code X-Okapi-request-ip} and {@code X-Forwarded-For}
   * are the client's own words: a guesser could name a new address with every guess and never be
   * counted.
   */
  @Test
  void forwardingHeadersOfAnUntrustedPeer_ignored(Vertx vertx) {
    redeploy(vertx, "none");
    for (int i = 0; i < 100; i++) {
      login("nobody" + i, "guess", "6.6.6." + i).then().statusCode(422);
    }
    login("bob", "battery staple", "7.7.7.7").then().statusCode(429);
  }

  @Test
  void guessesForOneUserFromManyAddresses_lockItForAllButWhereItLoggedIn() {
    login("alice", "correct horse", "10.1.0.1").then().statusCode(201);
    for (int i = 0; i < 30; i++) {
      login("alice", "guess", "10.2.0." + i).then().statusCode(422);
    }
    login("alice", "correct horse", "10.3.0.1").then().statusCode(429);
    login("alice", "correct horse", "10.1.0.1").then().statusCode(201);
  }

  @Test
  void concurrentGuessesForOneUser_checkedOneAtATime_restAnswered429AtOnce() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(40);
    try {
      List<Future<Response>> answers = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        int n = i;
        Callable<Response> guess = () -> login("alice", "guess" + n, "10.0.0.1");
        answers.add(pool.submit(guess));
      }
      int wrong = 0;
      int throttled = 0;
      for (Future<Response> answer : answers) {
        Response r = answer.get();
        if (r.statusCode() == 422) {
          wrong++;
        } else {
          assertThat(r.statusCode()).isEqualTo(429);
          assertThat(r.header("Retry-After")).isNotNull();
          throttled++;
        }
      }
      assertThat(wrong).as("guesses checked").isBetween(1, 5);
      assertThat(throttled).isEqualTo(40 - wrong);
    } finally {
      pool.shutdownNow();
    }
  }
}
