package io.okapigw.authtoken.store.pg;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.authtoken.MutableClock;
import io.okapigw.authtoken.TestModule;
import io.okapigw.testsupport.TestPostgres;
import io.restassured.response.Response;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The module on a PostgreSQL server of its own, which is stopped ({@code pg_ctl stop -m fast}) and
 * started again: a login while it is away is answered at once with a 503 naming the database (it
 * used to get no answer at all: the connection refused read as the client's socket gone, so the
 * gateway gave up after its idle timeout, a minute), and logins work again within seconds of its
 * return.
 */
class DatabaseAwayTest {

  /** Far from a login's own time (ms), far below the gateway's idle timeout (60 s). */
  private static final Duration PATIENCE = Duration.ofSeconds(30);

  @TempDir Path dir;
  private Vertx vertx;
  private TestPostgres postgres;
  private TestModule module;

  @BeforeEach
  void start() {
    String unavailable = TestPostgres.ownServerUnavailable();
    if (unavailable != null) {
      System.out.println("DatabaseAwayTest skipped: " + unavailable);
    }
    Assumptions.assumeTrue(unavailable == null, unavailable);
    postgres = TestPostgres.startOwn();
    vertx = Vertx.vertx();
    module =
        TestModule.deploy(
            vertx,
            TestModule.options(dir).withStore(postgres.createDatabase()),
            MutableClock.ofNow());
    module.createUser("alice", "pw", List.of("a"));
  }

  @AfterEach
  void stop() {
    if (vertx != null) {
      vertx.close().await();
    }
    if (postgres != null) {
      postgres.close();
    }
  }

  private Response login() {
    return module
        .request(TestModule.TENANT)
        .contentType("application/json")
        .body("{\"username\":\"alice\",\"password\":\"pw\"}")
        .post("/authn/login");
  }

  @Test
  void databaseStopped_loginAnswered503AtOnce_andFineWithinSecondsOfItsReturn() {
    login().then().statusCode(201);

    postgres.stop();
    long sent = System.nanoTime();
    Response away = login();
    Duration answered = Duration.ofNanos(System.nanoTime() - sent);

    assertThat(away.statusCode()).as(away.asString()).isEqualTo(503);
    assertThat(away.asString()).contains("unavailable").contains("database");
    assertThat(away.header("Retry-After")).isEqualTo("5");
    assertThat(answered).isLessThan(PATIENCE);

    postgres.start();
    long back = System.nanoTime();
    int status = 0;
    while (status != 201 && System.nanoTime() - back < PATIENCE.toNanos()) {
      status = login().statusCode();
    }
    System.out.printf(
        "DatabaseAwayTest: a login while PostgreSQL was stopped answered in %d ms; logins work"
            + " again %d ms after it was started%n",
        answered.toMillis(), Duration.ofNanos(System.nanoTime() - back).toMillis());
    assertThat(status).as("a login after the database's return").isEqualTo(201);
  }
}
