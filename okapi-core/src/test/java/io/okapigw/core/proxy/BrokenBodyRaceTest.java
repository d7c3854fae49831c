package io.okapigw.core.proxy;

import static io.okapigw.core.testing.GatewayFixture.handler;
import static io.okapigw.core.testing.GatewayFixture.module;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.LogCapture;
import io.okapigw.core.testing.RawClient;
import io.okapigw.core.testing.TestModule;
import io.okapigw.testsupport.Await;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A request answered by the gateway while its module still works on it (its chunked body broke:
 * 400, connection closed), and then the module's answer comes: it is dropped with the exchange (the
 * module's connection, holding a request sent in part, closed), never relayed over the 400 (Vert.x
 * threw "Response head already sent", logged at ERROR with a stack trace as an internal error;
 * found by the it-tests fuzz run).
 */
class BrokenBodyRaceTest {

  @RegisterExtension final GatewayFixture gw = new GatewayFixture();
  private final CompletableFuture<Void> gotData = new CompletableFuture<>();
  private final CompletableFuture<Void> release = new CompletableFuture<>();
  private final CompletableFuture<Void> moduleClosed = new CompletableFuture<>();

  @BeforeEach
  void start() {
    gw.createTenant("diku");
    TestModule module =
        TestModule.start(
            gw.vertx(),
            router ->
                router
                    .route("/late")
                    .handler(
                        ctx -> {
                          ctx.request().handler(chunk -> gotData.complete(null));
                          ctx.request().connection().closeHandler(v -> moduleClosed.complete(null));
                          release.thenRun(
                              () -> ctx.vertx().runOnContext(v -> ctx.response().end("late")));
                        }));
    gw.install("diku", module("mod-late-1.0.0", "late", handler("*", "/late")), module.url());
  }

  @AfterEach
  void stop() {
    release.complete(null);
  }

  @Test
  void chunkBreaksWhileModuleWorks_400_moduleAnswerDroppedQuietly() throws Exception {
    List<String> lines;
    try (LogCapture logs = new LogCapture();
        RawClient client = RawClient.connect(gw.gateway().port())) {
      client.send(
          "POST /late HTTP/1.1\r\nHost: x\r\nX-Okapi-Tenant: diku\r\n"
              + "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n");
      gotData.get(1, TimeUnit.MINUTES);
      client.send("zz\r\n");
      RawClient.Response response = client.response();
      assertThat(response.status()).as(response.toString()).isEqualTo(400);
      release.complete(null);
      assertThat(client.readTextUntilClosed()).isEmpty();
      // the module's answer reaches the gateway: its connection to the module is closed (the
      // exchange given up), or, as before, it is relayed and fails
      Await.until(
          () -> moduleClosed.isDone() || logs.text().contains("ERROR"),
          "the module's connection closed, or an error logged");
      assertThat(moduleClosed).as("the module's connection closed").isDone();
      lines = logs.lines();
    }
    assertThat(lines)
        .as("log lines")
        .noneMatch(l -> l.contains("ERROR") || l.contains("Response head already sent"));
    assertThat(gw.tenant("diku").body("x").post("/late").asString()).isEqualTo("late");
  }
}
