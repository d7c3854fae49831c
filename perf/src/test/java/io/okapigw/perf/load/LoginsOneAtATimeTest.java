package io.okapigw.perf.load;

import static io.okapigw.perf.load.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The load driver logs its users in one after the other (issue 48): a login is a password hash, and
 * 8 at once on a busy 2-core machine waited past the gateway's {@code auth.handler-timeout}, so the
 * README's load command failed with a 504 on a fresh clone. Counted, not timed: the gateway here
 * holds every login 100 ms and records how many it held at once; logged in all at once, the 8
 * arrive within those 100 ms on any machine that is not stalled for longer.
 */
class LoginsOneAtATimeTest {

  private static final int USERS = 8;

  private Vertx vertx;
  private URI gateway;
  private final AtomicInteger loginsHeld = new AtomicInteger();
  private final AtomicInteger mostHeldAtOnce = new AtomicInteger();
  private final AtomicInteger logins = new AtomicInteger();

  @BeforeEach
  void start() throws Exception {
    vertx = Vertx.vertx();
    gateway =
        URI.create(
            "http://127.0.0.1:"
                + await(
                        vertx
                            .createHttpServer()
                            .requestHandler(req -> req.body().onSuccess(b -> answer(req)))
                            .listen(0, "127.0.0.1"))
                    .actualPort());
  }

  @AfterEach
  void stop() throws Exception {
    await(vertx.close());
  }

  private void answer(HttpServerRequest req) {
    switch (req.path()) {
      case "/authn/login" -> {
        logins.incrementAndGet();
        mostHeldAtOnce.accumulateAndGet(loginsHeld.incrementAndGet(), Math::max);
        vertx.setTimer(
            100,
            id -> {
              loginsHeld.decrementAndGet();
              req.response().setStatusCode(201).putHeader("X-Okapi-Token", "t").end("{}");
            });
      }
      case Workload.CHECK_OUT -> req.response().setStatusCode(201).end("{}");
      case Workload.CHECK_IN -> req.response().setStatusCode(200).end("{}");
      default -> req.response().setStatusCode(404).end();
    }
  }

  @Test
  void start_logsEightUsersIn_oneAtATime() throws Exception {
    List<BarcodeRow> rows = new ArrayList<>();
    for (int i = 0; i < USERS; i++) {
      rows.add(new BarcodeRow("i" + i, "u" + i, "sp"));
    }
    LoadPlan plan =
        new LoadPlan(
            List.of(gateway),
            "diku",
            "diku_admin",
            "admin",
            USERS,
            Duration.ZERO,
            Duration.ofMinutes(10),
            2,
            20);

    LoadDriver driver = await(LoadDriver.start(vertx, plan, rows, gateway.toString()));

    assertThat(logins).hasValue(USERS);
    assertThat(mostHeldAtOnce).as("logins the gateway held at once").hasValue(1);
    await(driver.finish());
  }
}
