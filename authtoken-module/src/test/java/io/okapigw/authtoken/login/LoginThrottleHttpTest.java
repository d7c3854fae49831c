package io.okapigw.authtoken.login;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.authtoken.MutableClock;
import io.okapigw.authtoken.TestModule;
import io.okapigw.authtoken.http.OkapiHeaders;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
 * Login guessing is throttled as FOLIO's mod-login throttles it (5 failed logins of a user within
 * 10 minutes lock it; here for 10 minutes, not until an administrator reactivates it), per client
 * too, and one user's guesses are checked one at a time: the rest are answered 429 with {@code
 * Retry-After} at once, without hashing.
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
    return module
        .request(TestModule.TENANT)
        .header("X-Okapi-request-ip", client)
        .contentType(ContentType.JSON)
        .body(new JsonObject().put("username", username).put("password", password).encode())
        .post("/authn/login");
  }

  @Test
  void fiveFailures_lockTheUserTenMinutes_429WithRetryAfter_othersUnaffected() {
    for (int i = 0; i < 5; i++) {
      login("alice", "guess" + i, "10.0.0.1").then().statusCode(422);
    }
    Response locked = login("alice", "correct horse", "10.0.0.2");
    assertThat(locked.statusCode()).isEqualTo(429);
    assertThat(locked.asString()).contains("alice");
    assertThat(Long.parseLong(locked.header("Retry-After"))).isBetween(1L, 600L);
    login("bob", "battery staple", "10.0.0.1").then().statusCode(201);
    clock.advance(Duration.ofMinutes(9));
    login("alice", "correct horse", "10.0.0.2").then().statusCode(429);
    clock.advance(Duration.ofMinutes(1).plusSeconds(1));
    login("alice", "correct horse", "10.0.0.2")
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

  @Test
  void oneClientGuessingManyUsers_lockedAfterItsLimit_otherClientsUnaffected() {
    for (int i = 0; i < 100; i++) {
      login("user" + i, "guess", "6.6.6.6").then().statusCode(422);
    }
    Response locked = login("alice", "correct horse", "6.6.6.6");
    assertThat(locked.statusCode()).isEqualTo(429);
    assertThat(locked.header("Retry-After")).isNotNull();
    login("alice", "correct horse", "7.7.7.7").then().statusCode(201);
  }

  @Test
  void concurrentGuessesForOneUser_checkedOneAtATime_restAnswered429AtOnce() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(40);
    try {
      List<Future<Response>> answers = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        int n = i;
        Callable<Response> guess = () -> login("alice", "guess" + n, "10.0.0." + n);
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
