package io.okapigw.core.proxy;

import static io.okapigw.core.testing.GatewayFixture.handler;
import static io.okapigw.core.testing.GatewayFixture.module;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.config.Settings;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.testing.BoundedHttp;
import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.RawClient;
import io.okapigw.core.testing.RawClient.Head;
import io.okapigw.core.testing.StreamModule;
import io.okapigw.core.testing.StreamModule.Held;
import io.okapigw.testsupport.Await;
import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Either side of a relayed exchange closing midway, in each direction (as vertx-http-proxy tests
 * them): the other side is closed or reset, and the module's pool, one connection here, serves the
 * next request at once.
 */
class StreamCloseTest {

  private GatewayFixture gw;
  private StreamModule module;
  private BoundedHttp http;

  @BeforeEach
  void start() {
    gw = new GatewayFixture(GatewayOptions.from(Settings.of(Map.of("proxy.max-connections", "1"))));
    gw.createTenant("diku");
    module = StreamModule.start(gw.vertx());
    gw.install("diku", module("mod-stream-1.0.0", "stream", handler("*", "/s/*")), module.url());
    http = new BoundedHttp(gw.url());
  }

  @AfterEach
  void stop() {
    gw.close();
  }

  @Test
  void upload_clientClosesMidBody_moduleConnectionClosedAndPoolServesNext() throws IOException {
    RawClient client =
        RawClient.connect(gw.gateway().port()).head("POST", "/s/hold", 2048).body(1024);
    Held held = module.nextHeld().awaitData();
    client.close();
    held.awaitClosed();
    assertPoolServesNext();
  }

  @Test
  void upload_clientResetsMidBody_moduleConnectionClosedAndPoolServesNext() throws IOException {
    RawClient client =
        RawClient.connect(gw.gateway().port()).head("POST", "/s/hold", 2048).body(1024);
    Held held = module.nextHeld().awaitData();
    client.reset();
    held.awaitClosed();
    assertPoolServesNext();
  }

  @Test
  void download_clientClosesMidBody_moduleConnectionClosedAndPoolServesNext() throws IOException {
    RawClient client = RawClient.connect(gw.gateway().port()).head("GET", "/s/hold", -1);
    Head head = client.readHead();
    client.readBody(4);
    Held held = module.nextHeld().awaitData();
    client.close();
    held.awaitClosed();
    assertThat(head.contentLength()).isEqualTo(StreamModule.HELD_LENGTH);
    assertPoolServesNext();
  }

  @Test
  void upload_moduleClosesMidBody_client502AndPoolServesNext() throws IOException {
    try (RawClient client = RawClient.connect(gw.gateway().port())) {
      client.head("POST", "/s/hold", 2048).body(1024);
      module.nextHeld().awaitData().closeConnection();
      assertThat(client.status()).isEqualTo(502);
    }
    assertPoolServesNext();
  }

  @Test
  void download_moduleClosesMidBody_clientConnectionClosedAndPoolServesNext() throws IOException {
    try (RawClient client = RawClient.connect(gw.gateway().port())) {
      client.head("GET", "/s/hold", -1);
      assertThat(client.readHead().status()).isEqualTo(200);
      client.readBody(4);
      module.nextHeld().awaitData().closeConnection();
      assertThat(client.readUntilClosed()).isLessThan(StreamModule.HELD_LENGTH - 4);
    }
    assertPoolServesNext();
  }

  /**
   * The module answers before the body is all sent: the client gets the answer, the rest of its
   * body is read and dropped, its connection stays usable, and the module's connection, holding a
   * request sent in part, is closed rather than pooled.
   */
  @Test
  void upload_moduleAnswersEarlyClientSendsRest_answerRelayedAndBothConnectionsUsable()
      throws IOException {
    int declared = 1_000_000;
    try (RawClient client = RawClient.connect(gw.gateway().port())) {
      client.head("POST", "/s/upload", declared).body(1024);
      Head head = client.readHead();
      assertThat(head.status()).isEqualTo(413);
      client.readBody((int) head.contentLength()).body(declared - 1024);
      client.head("GET", "/s/ping", -1);
      assertThat(client.readHead().status()).isEqualTo(200);
    }
    assertPoolServesNext();
  }

  /** The pool serves the next requests, and no call is left in flight (the scrape's own aside). */
  private void assertPoolServesNext() {
    assertThat(BoundedHttp.await(http.get("/s/ping")).toString()).startsWith("200 ");
    assertThat(BoundedHttp.await(http.post("/s/echo", 3000)).body()).isEqualTo("got 3000 bytes");
    Await.until(
        () -> gw.request().get("/_/metrics").asString().contains("\nokapi_calls_in_flight 1.0\n"),
        "every call closed");
  }
}
