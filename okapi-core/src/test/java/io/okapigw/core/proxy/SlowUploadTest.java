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
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code proxy.idle-timeout} (here 1 s) while a client uploads: it runs from the last bytes the
 * client sent, so an upload that keeps moving is never cut however long it lasts, and one that
 * stops is the client's failure (408, connection closed), not the module's (504), the module's
 * connection closed and its pool serving next.
 */
class SlowUploadTest {

  private GatewayFixture gw;
  private BoundedHttp http;

  @BeforeEach
  void start() {
    gw =
        new GatewayFixture(
            GatewayOptions.from(
                Settings.of(Map.of("proxy.max-connections", "1", "proxy.idle-timeout", "1s"))));
    gw.createTenant("diku");
    StreamModule module = StreamModule.start(gw.vertx());
    gw.install("diku", module("mod-stream-1.0.0", "stream", handler("*", "/s/*")), module.url());
    http = new BoundedHttp(gw.url());
  }

  @AfterEach
  void stop() {
    gw.close();
  }

  /** 3,000 bytes in 12 pieces 250 ms apart: three times the idle timeout, never idle for it. */
  @Test
  void uploadLongerThanIdleTimeoutButMoving_answered() throws Exception {
    try (RawClient client = RawClient.connect(gw.gateway().port())) {
      client.head("POST", "/s/echo", 3000);
      for (int i = 0; i < 12; i++) {
        client.body(250);
        TimeUnit.MILLISECONDS.sleep(250); // the client's pace, not a wait for the gateway
      }
      RawClient.Response response = client.response();
      assertThat(response.toString()).startsWith("200 ");
      assertThat(response.body()).isEqualTo("got 3000 bytes");
    }
    assertPoolServesNext();
  }

  @Test
  void uploadStoppedMidway_408ConnectionClosed_not504() throws IOException {
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
