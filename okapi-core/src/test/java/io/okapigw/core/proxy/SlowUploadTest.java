package io.okapigw.core.proxy;

import static io.okapigw.core.testing.GatewayFixture.handler;
import static io.okapigw.core.testing.GatewayFixture.module;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.config.Settings;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.testing.BoundedHttp;
import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.RawClient;
import io.okapigw.core.testing.StreamModule;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code proxy.idle-timeout} while a client uploads: it runs from the last bytes the client sent,
 * so an upload that keeps moving is never cut however long it lasts, and one that stops is the
 * client's failure (408, connection closed), not the module's (504), the module's connection closed
 * and its pool serving next.
 */
class SlowUploadTest {

  private GatewayFixture gw;
  private BoundedHttp http;

  private void start(String proxyIdleTimeout, String serverIdleTimeout) {
    gw =
        new GatewayFixture(
            GatewayOptions.from(
                Settings.of(
                    Map.of(
                        "proxy.max-connections", "1",
                        "proxy.idle-timeout", proxyIdleTimeout,
                        "server.idle-timeout", serverIdleTimeout))));
    gw.createTenant("diku");
    StreamModule module = StreamModule.start(gw.vertx());
    gw.install("diku", module("mod-stream-1.0.0", "stream", handler("*", "/s/*")), module.url());
    http = new BoundedHttp(gw.url());
  }

  @AfterEach
  void stop() {
    if (gw != null) {
      gw.close();
    }
  }

  /**
   * 100 bytes every 100 ms until the gateway has closed another connection for {@code
   * server.idle-timeout} (4 s, longer than the 3 s {@code proxy.idle-timeout}), then the rest: the
   * upload outlasts the idle timeout, its pauses are a thirtieth of it, so a busy machine that
   * delays the client's next piece by hundreds of ms does not make it idle.
   */
  @Test
  void uploadLongerThanIdleTimeoutButMoving_answered() throws Exception {
    start("3s", "4s");
    int declared = 100_000;
    try (RawClient client = RawClient.connect(gw.gateway().port())) {
      client.head("POST", "/s/echo", declared);
      CompletableFuture<Void> idleTimeoutPassed =
          gw.silentConnectionClosed().toCompletionStage().toCompletableFuture();
      int sent = 0;
      while (!idleTimeoutPassed.isDone() && sent < declared - 100) {
        client.body(100);
        sent += 100;
        TimeUnit.MILLISECONDS.sleep(100); // the client's pace, not a wait for the gateway
      }
      idleTimeoutPassed.get(1, TimeUnit.MINUTES); // fails if no connection could be opened
      client.body(declared - sent);
      RawClient.Response response = client.response();
      assertThat(response.toString()).startsWith("200 ");
      assertThat(response.body()).isEqualTo("got " + declared + " bytes");
    }
    assertPoolServesNext();
  }

  @Test
  void uploadStoppedMidway_408ConnectionClosed_not504() throws IOException {
    start("1s", "120s");
    try (RawClient client = RawClient.connect(gw.gateway().port())) {
      client.head("POST", "/s/echo", 3000).body(1000);
      RawClient.Response response = client.response();
      assertThat(response.status()).as(response.toString()).isEqualTo(408);
      assertThat(response.head().headers()).containsEntry("connection", "close");
      assertThat(client.readUntilClosed()).isZero();
    }
    assertPoolServesNext();
  }

  private void assertPoolServesNext() {
    assertThat(BoundedHttp.await(http.get("/s/ping")).toString()).startsWith("200 ");
    assertThat(BoundedHttp.await(http.post("/s/echo", 3000)).body()).isEqualTo("got 3000 bytes");
  }
}
