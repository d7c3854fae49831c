package io.okapigw.authtoken.login;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.authtoken.AuthtokenOptions;
import io.okapigw.authtoken.MutableClock;
import io.okapigw.authtoken.TestModule;
import io.okapigw.authtoken.password.PasswordOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A small, bounded check at the production hashing cost (600,000 PBKDF2 iterations, 2 hashing
 * threads): once 40 wrong-password logins for one user are on the wire, each on a connection of its
 * own, another user's login waits for at most one of their hashes, not for the 40. Counted, not
 * timed: how many guesses had their password checked (answered 422) while that login was under way
 * — at most 3 (one in progress when it came, one beside it on the other thread, one to spare for
 * the order answers are seen in), where all 40 hashed in one queue made it about 38. A stopwatch
 * failed on a busy machine, where one login alone takes seconds. Both times are printed (see
 * docs/benchmarks-authtoken.md).
 */
@ExtendWith(VertxExtension.class)
class LoginFloodPerfTest {
  private static final int GUESSES = 40;

  @TempDir Path dir;
  private TestModule module;
  private HttpClientAgent client;

  @BeforeEach
  void setUp(Vertx vertx) {
    AuthtokenOptions options =
        TestModule.options(dir)
            .withPasswords(
                new PasswordOptions(
                    PasswordOptions.ITERATIONS.defaultValue(),
                    PasswordOptions.THREADS.defaultValue()));
    module = TestModule.deploy(vertx, options, MutableClock.ofNow());
    module.createUser("victim", "correct horse", List.of());
    module.createUser("bob", "battery staple", List.of());
    client =
        vertx.createHttpClient(
            new HttpClientOptions()
                .setDefaultHost("127.0.0.1")
                .setDefaultPort(module.port())
                .setKeepAlive(false),
            new PoolOptions().setHttp1MaxSize(GUESSES + 1));
  }

  @AfterEach
  void tearDown() {
    client.close().await();
    module.undeploy();
  }

  /** Opens a login request and writes it whole; @return its status once answered */
  private Future<Future<Integer>> sent(String user, String password) {
    return client
        .request(
            new RequestOptions()
                .setMethod(HttpMethod.POST)
                .setURI("/authn/login")
                .putHeader("X-Okapi-Tenant", TestModule.TENANT)
                .putHeader("Content-Type", "application/json"))
        .compose(
            request -> {
              Future<Integer> status = request.response().map(r -> r.statusCode());
              return request
                  .end(new JsonObject().put("username", user).put("password", password).encode())
                  .map(status);
            });
  }

  private long loginMillis() {
    long start = System.nanoTime();
    assertThat(TestModule.await(TestModule.await(sent("bob", "battery staple")))).isEqualTo(201);
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
  }

  @Test
  void fortyConcurrentGuesses_anotherUsersLoginWaitsForOneOfTheirHashesAtMost() {
    loginMillis();
    long alone = loginMillis();
    AtomicInteger checked = new AtomicInteger();
    List<Future<Integer>> guesses = new ArrayList<>();
    for (int i = 0; i < GUESSES; i++) {
      guesses.add(
          TestModule.await(sent("victim", "guess" + i))
              .onSuccess(
                  status -> {
                    if (status == 422) {
                      checked.incrementAndGet();
                    }
                  }));
    }
    int before = checked.get();
    long start = System.nanoTime();
    Future<Integer> login = TestModule.await(sent("bob", "battery staple"));
    AtomicInteger during = new AtomicInteger(-1);
    assertThat(TestModule.await(login.onComplete(x -> during.set(checked.get() - before))))
        .isEqualTo(201);
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    for (Future<Integer> guess : guesses) {
      assertThat(TestModule.await(guess)).isIn(422, 429);
    }
    System.out.printf(
        "login flood: another user's login took %d ms while %d guesses for one user ran"
            + " (%d ms alone); %d of their passwords checked meanwhile%n",
        millis, GUESSES, alone, during.get());
    assertThat(during.get())
        .as("guesses checked while another user's login was under way")
        .isBetween(0, 3);
    assertThat(checked.get()).as("guesses checked before the user was locked").isEqualTo(5);
  }
}
