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
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code server.header-timeout} and {@code server.idle-timeout}: a client that sends nothing, a
 * head bit by bit, or half a body loses its connection; a client whose request is slow to answer or
 * slow to upload does not. Here 1 s for headers, 3 s idle, 2 s for modules; every wait is bounded
 * by {@link RawClient#TIMEOUT_MILLIS}.
 */
class ServerTimeoutsTest {

  private static final Map<String, String> TIMEOUTS =
      Map.of(
          "server.header-timeout", "1s", "server.idle-timeout", "3s", "proxy.idle-timeout", "2s");
  private static final String HEAD = "Host: x\r\nX-Okapi-Tenant: diku\r\n";

  private GatewayFixture gw;
  private StreamModule stream;

  @BeforeEach
  void start() {
    gw = new GatewayFixture(GatewayOptions.from(Settings.of(TIMEOUTS)));
    gw.createTenant("diku");
    stream = StreamModule.start(gw.vertx());
    gw.install("diku", module("mod-stream-1.0.0", "stream", handler("*", "/s/*")), stream.url());
    TestModule slow =
        TestModule.start(
            gw.vertx(),
            router ->
                router
                    .route()
                    .handler(ctx -> gw.vertx().setTimer(1500, id -> ctx.response().end("late"))));
    gw.install("diku", module("mod-slow-1.0.0", "slow", handler("GET", "/slow")), slow.url());
  }

  @AfterEach
  void stop() {
    gw.close();
  }

  private RawClient client() {
    return RawClient.connect(gw.gateway().port());
  }

  @Test
  void connectionSendingNothing_closedAfterHeaderTimeout() {
    try (RawClient client = client()) {
      assertThat(client.readTextUntilClosed()).isEmpty();
    }
  }

  @Test
  void headNeverCompleted_closedAfterHeaderTimeout() throws IOException {
    try (RawClient client = client()) {
      client.send("GET /s/ping HTTP/1.1\r\nHost: x\r\n");
      assertThat(client.readTextUntilClosed()).isEmpty();
    }
  }

  @Test
  void keepAliveConnection_servesRequestsThenClosedAfterHeaderTimeoutOfSilence()
      throws IOException {
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
    try (RawClient client = client()) {
      client.head("POST", "/s/hold", 2048).body(1024);
      Held held = stream.nextHeld().awaitData();
      client.readTextUntilClosed();
      held.awaitClosed();
    }
  }

  @Test
  void moduleSlowerThanHeaderTimeout_answered() throws IOException {
    try (RawClient client = client()) {
      client.send("GET /slow HTTP/1.1\r\n" + HEAD + "\r\n");
      assertThat(client.response().body()).isEqualTo("late");
    }
  }

  @Test
  void uploadLongerThanHeaderTimeout_answered() throws IOException {
    try (RawClient client = client()) {
      client.head("POST", "/s/echo", 3000).body(1000);
      assertThat(client.silentFor(700)).isTrue();
      client.body(1000);
      assertThat(client.silentFor(700)).isTrue();
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
