package io.okapigw.core.server;

import static io.okapigw.core.testing.GatewayFixture.handler;
import static io.okapigw.core.testing.GatewayFixture.module;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.okapigw.config.Settings;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.RawClient;
import io.okapigw.core.testing.StreamModule;
import io.okapigw.core.testing.StreamModule.Held;
import io.okapigw.core.testing.TestModule;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code server.header-timeout} and {@code server.idle-timeout}: a client that sends nothing, a
 * head bit by bit, or half a body loses its connection; a client whose request is slow to answer or
 * slow to upload does not. Each test sets short only the timeout it waits to fire, and what the
 * client must do before a timeout (send a head, a next request, the rest of a body; a module its
 * answer) is far from it: on a busy machine a client's next step comes hundreds of ms late. "Longer
 * than a timeout" is waited for by a connection the gateway closes for that timeout, not by a
 * sleep. Every wait is bounded by {@link RawClient#TIMEOUT_MILLIS}.
 */
class ServerTimeoutsTest {

  /** Nothing fires while a test's client acts. */
  private static final Map<String, String> LONG =
      Map.of(
          "server.header-timeout",
          "60s",
          "server.idle-timeout",
          "60s",
          "proxy.idle-timeout",
          "30s");

  private static final String HEAD = "Host: x\r\nX-Okapi-Tenant: diku\r\n";

  private GatewayFixture gw;
  private StreamModule stream;

  /** Starts a gateway with {@link #LONG} timeouts but for {@code shorter} ({@code name, value}). */
  private void start(String... shorter) {
    Map<String, String> settings = new HashMap<>(LONG);
    for (int i = 0; i < shorter.length; i += 2) {
      settings.put(shorter[i], shorter[i + 1]);
    }
    gw = new GatewayFixture(GatewayOptions.from(Settings.of(settings)));
    gw.createTenant("diku");
    stream = StreamModule.start(gw.vertx());
    gw.install("diku", module("mod-stream-1.0.0", "stream", handler("*", "/s/*")), stream.url());
  }

  @AfterEach
  void stop() {
    if (gw != null) {
      gw.close();
    }
  }

  private RawClient client() {
    return RawClient.connect(gw.gateway().port());
  }

  @Test
  void connectionSendingNothing_closedAfterHeaderTimeout() {
    start("server.header-timeout", "1s");
    try (RawClient client = client()) {
      assertThat(client.readTextUntilClosed()).isEmpty();
    }
  }

  @Test
  void headNeverCompleted_closedAfterHeaderTimeout() throws IOException {
    start("server.header-timeout", "1s");
    try (RawClient client = client()) {
      client.send("GET /s/ping HTTP/1.1\r\nHost: x\r\n");
      assertThat(client.readTextUntilClosed()).isEmpty();
    }
  }

  /** The client's requests must come within the header timeout, so it is 3 s here. */
  @Test
  void keepAliveConnection_servesRequestsThenClosedAfterHeaderTimeoutOfSilence()
      throws IOException {
    start("server.header-timeout", "3s");
    try (RawClient client = client()) {
      client.send("GET /s/ping HTTP/1.1\r\n" + HEAD + "\r\n");
      assertThat(client.response().body()).isEqualTo("pong");
      client.send("GET /s/ping HTTP/1.1\r\n" + HEAD + "\r\n");
      assertThat(client.response().body()).isEqualTo("pong");
      assertThat(client.readTextUntilClosed()).isEmpty();
    }
  }

  @Test
  void bodyStoppedMidway_connectionsClosed() throws IOException {
    start("server.idle-timeout", "3s", "proxy.idle-timeout", "2s");
    try (RawClient client = client()) {
      client.head("POST", "/s/hold", 2048).body(1024);
      Held held = stream.nextHeld().awaitData();
      client.readTextUntilClosed();
      held.awaitClosed();
    }
  }

  /** The module answers once the gateway has closed a connection for the header timeout. */
  @Test
  void moduleSlowerThanHeaderTimeout_answered() throws IOException {
    start("server.header-timeout", "2s");
    TestModule slow =
        TestModule.start(
            gw.vertx(),
            router ->
                router
                    .route()
                    .handler(
                        ctx ->
                            gw.silentConnectionClosed()
                                .onComplete(x -> ctx.response().end(x.succeeded() ? "late" : ""))));
    gw.install("diku", module("mod-slow-1.0.0", "slow", handler("GET", "/slow")), slow.url());
    try (RawClient client = client()) {
      client.send("GET /slow HTTP/1.1\r\n" + HEAD + "\r\n");
      assertThat(client.response().body()).isEqualTo("late");
    }
  }

  /**
   * Between its pieces, the client waits for the gateway to close a connection that sent nothing.
   */
  @Test
  void uploadLongerThanHeaderTimeout_answered() throws Exception {
    start("server.header-timeout", "2s");
    try (RawClient client = client()) {
      client.head("POST", "/s/echo", 3000).body(1000);
      gw.silentConnectionClosed().await(1, TimeUnit.MINUTES);
      assertThat(client.silentFor(10)).isTrue();
      client.body(1000);
      gw.silentConnectionClosed().await(1, TimeUnit.MINUTES);
      assertThat(client.silentFor(10)).isTrue();
      client.body(1000);
      assertThat(client.response().body()).isEqualTo("got 3000 bytes");
    }
  }

  @Test
  void settings_defaultsStopSlowClientsYetOutlastModules() {
    ServerOptions defaults = GatewayOptions.from(Settings.of(Map.of())).server();
    assertThat(defaults.headerTimeout()).isEqualTo(Duration.ofSeconds(75));
    assertThat(defaults.idleTimeout()).isEqualTo(Duration.ofSeconds(120));
    ServerOptions off =
        GatewayOptions.from(
                Settings.of(Map.of("server.header-timeout", "0", "server.idle-timeout", "0")))
            .server();
    assertThat(off.headerTimeout()).isZero();
    assertThat(off.idleTimeout()).isZero();
  }

  @Test
  void settings_badTimeouts_refusedNamingTheSetting() {
    assertThatThrownBy(() -> GatewayOptions.from(Settings.of(Map.of("server.idle-timeout", "60s"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("server.idle-timeout")
        .hasMessageContaining("proxy.idle-timeout");
    assertThatThrownBy(
            () -> GatewayOptions.from(Settings.of(Map.of("server.header-timeout", "soon"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("server.header-timeout");
    assertThatThrownBy(() -> GatewayOptions.from(Settings.of(Map.of("server.idle-timeout", "25h"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("server.idle-timeout");
  }
}
