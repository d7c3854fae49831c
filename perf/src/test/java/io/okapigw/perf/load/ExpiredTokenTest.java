package io.okapigw.perf.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A token that expires mid-run: the user logs in again and the operation goes through. */
class ExpiredTokenTest {

  private final Vertx vertx = Vertx.vertx();
  private final AtomicInteger logins = new AtomicInteger();
  private final List<String> loginTokens = new CopyOnWriteArrayList<>();

  @AfterEach
  void stop() {
    vertx.close().await();
  }

  /** Login hands out t1, t2, ...; t1 has "expired" (401 on every operation). */
  private void handle(HttpServerRequest req) {
    String token = req.getHeader("X-Okapi-Token");
    if (req.path().equals("/authn/login")) {
      loginTokens.add(String.valueOf(token));
      req.response()
          .setStatusCode(201)
          .putHeader("X-Okapi-Token", "t" + logins.incrementAndGet())
          .end("{}");
    } else if (req.path().equals("/_/metrics")) {
      req.response().end("");
    } else if ("t1".equals(token)) {
      req.response().setStatusCode(401).end("token expired");
    } else {
      req.response().setStatusCode(200).end("{}");
    }
  }

  @Test
  void tokenRefusedWith401_userLogsInAgainWithoutTheOldToken_andNothingFails() throws Exception {
    HttpServer gateway =
        vertx.createHttpServer().requestHandler(this::handle).listen(0, "127.0.0.1").await();
    LoadPlan plan =
        new LoadPlan(
            List.of(URI.create("http://127.0.0.1:" + gateway.actualPort())),
            "diku",
            "u",
            "p",
            1,
            Duration.ZERO,
            Duration.ofMinutes(1),
            0,
            4);

    RunReport report =
        LoadDriver.run(vertx, plan, List.of(new BarcodeRow("i1", "u1", "sp")), "fake")
            .await(Futures.PATIENCE.toMillis(), TimeUnit.MILLISECONDS);

    assertThat(report.errors()).as("errors: %s", report.firstErrors()).isZero();
    assertThat(report.both().count()).isEqualTo(4);
    assertThat(logins).hasValue(2);
    assertThat(loginTokens).containsExactly("null", "null");
  }
}
