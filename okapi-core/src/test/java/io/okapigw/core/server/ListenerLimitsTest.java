package io.okapigw.core.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.okapigw.config.Settings;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.RawClient;
import io.okapigw.testsupport.Await;
import io.okapigw.testsupport.FreePorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every listener of a node — the public one, the admin one ({@code admin.port}) and Okapi's {@code
 * healthPort} — reads requests strictly, has the {@code server.*} header and idle timeouts, and a
 * limit on its client connections open at once, past which a new connection is closed at once (on
 * the health port: the oldest idle one is closed for it). Every wait is bounded by {@link
 * RawClient#TIMEOUT_MILLIS}; the header timeout of the limit tests (10 min) is far beyond it, so a
 * connection closed there was closed by the limit.
 */
class ListenerLimitsTest {

  private static final String READINESS = "GET /readiness HTTP/1.1\r\nHost: x\r\n\r\n";
  private static final String HEALTH = "GET /_/proxy/health HTTP/1.1\r\nHost: x\r\n\r\n";

  private static GatewayFixture gateway(Map<String, String> settings) {
    return new GatewayFixture(GatewayOptions.from(Settings.of(settings)));
  }

  private static Map<String, String> withHealthPort(int port, String... more) {
    Map<String, String> settings = new HashMap<>();
    settings.put("healthPort", Integer.toString(port));
    for (int i = 0; i < more.length; i += 2) {
      settings.put(more[i], more[i + 1]);
    }
    return settings;
  }

  @Test
  void healthPort_connectionSendingNothing_closedAfterHeaderTimeout() {
    int port = FreePorts.belowEphemeralRange();
    try (GatewayFixture gw = gateway(withHealthPort(port, "server.header-timeout", "1s"));
        RawClient client = RawClient.connect(port)) {
      assertThat(client.readTextUntilClosed()).isEmpty();
    }
  }

  @Test
  void healthPort_headNeverCompleted_closedAfterHeaderTimeout() throws IOException {
    int port = FreePorts.belowEphemeralRange();
    try (GatewayFixture gw = gateway(withHealthPort(port, "server.header-timeout", "1s"));
        RawClient client = RawClient.connect(port)) {
      client.send("GET /readiness HTTP/1.1\r\nHost: x\r\n");
      assertThat(client.readTextUntilClosed()).isEmpty();
    }
  }

  /** Its request must come within the header timeout, so it is 3 s here (a busy machine). */
  @Test
  void healthPort_keepAliveConnection_answeredThenClosedAfterHeaderTimeoutOfSilence()
      throws IOException {
    int port = FreePorts.belowEphemeralRange();
    try (GatewayFixture gw = gateway(withHealthPort(port, "server.header-timeout", "3s"));
        RawClient client = RawClient.connect(port)) {
      client.send(READINESS);
      assertThat(client.response().status()).isEqualTo(204);
      assertThat(client.readTextUntilClosed()).isEmpty();
    }
  }

  @Test
  void healthPort_headWithTwoFramings_refused400AndClosed() throws IOException {
    int port = FreePorts.belowEphemeralRange();
    try (GatewayFixture gw = gateway(withHealthPort(port));
        RawClient client = RawClient.connect(port)) {
      client.send(
          "GET /readiness HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n"
              + "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n");
      assertThat(client.response().status()).isEqualTo(400);
      assertThat(client.readTextUntilClosed()).isEmpty();
    }
  }

  @Test
  void publicListener_pastMaxConnections_newConnectionClosedAtOnce_servedOnceOneCloses() {
    try (GatewayFixture gw =
        gateway(Map.of("server.max-connections", "2", "server.header-timeout", "10m"))) {
      assertLimitOfTwo(gw.gateway().port(), HEALTH, 200);
      assertThat(metrics(gw)).contains(refused("public"));
    }
  }

  @Test
  void adminListener_pastMaxConnections_newConnectionClosedAtOnce_servedOnceOneCloses() {
    int admin = FreePorts.belowEphemeralRange();
    try (GatewayFixture gw =
        gateway(
            Map.of(
                "admin.port",
                Integer.toString(admin),
                "server.admin-max-connections",
                "2",
                "server.header-timeout",
                "10m"))) {
      assertLimitOfTwo(admin, HEALTH, 200);
      assertThat(metrics(gw)).contains(refused("admin"));
    }
  }

  /**
   * Past the health port's limit the oldest idle connection makes room: {@code HealthProbesTest}.
   */
  @Test
  void healthPort_pastMaxConnections_oldestIdleConnectionClosed_newOneServed() throws IOException {
    int port = FreePorts.belowEphemeralRange();
    try (GatewayFixture gw =
            gateway(
                withHealthPort(
                    port, "server.health-max-connections", "2", "server.header-timeout", "10m"));
        RawClient first = RawClient.connect(port);
        RawClient second = RawClient.connect(port)) {
      first.send(READINESS);
      assertThat(first.response().status()).isEqualTo(204);
      second.send(READINESS);
      assertThat(second.response().status()).isEqualTo(204);

      try (RawClient third = RawClient.connect(port)) {
        third.send(READINESS);
        assertThat(third.response().status()).isEqualTo(204);
      }

      assertThat(first.readTextUntilClosed()).as("the oldest idle connection").isEmpty();
      second.send(READINESS);
      assertThat(second.response().status()).isEqualTo(204);
    }
  }

  @Test
  void settings_defaultsLimitEveryListener_badValuesRefusedNamingTheSetting() {
    ServerOptions defaults = GatewayOptions.from(Settings.of(Map.of())).server();
    assertThat(defaults.maxConnections()).isEqualTo(10_000);
    assertThat(defaults.adminMaxConnections()).isEqualTo(1_000);
    assertThat(defaults.healthMaxConnections()).isEqualTo(64);
    assertThatThrownBy(
            () -> GatewayOptions.from(Settings.of(Map.of("server.max-connections", "0"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("server.max-connections");
    assertThatThrownBy(
            () -> GatewayOptions.from(Settings.of(Map.of("server.health-max-connections", "many"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("server.health-max-connections");
  }

  /**
   * Two connections served and kept open; a third closed at once without an answer; once one of the
   * two closes, a new one is served.
   */
  private static void assertLimitOfTwo(int port, String request, int status) {
    try (RawClient first = RawClient.connect(port);
        RawClient second = RawClient.connect(port)) {
      first.send(request);
      assertThat(first.response().status()).isEqualTo(status);
      second.send(request);
      assertThat(second.response().status()).isEqualTo(status);
      try (RawClient third = RawClient.connect(port)) {
        assertThat(third.readTextUntilClosed()).isEmpty();
      }
      first.close();
      Await.until(() -> served(port, request) == status, "a connection served again");
      second.send(request);
      assertThat(second.response().status()).isEqualTo(status);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The status a new connection's request gets, or -1 if the connection is closed first. */
  private static int served(int port, String request) {
    try (RawClient client = RawClient.connect(port)) {
      client.send(request);
      return client.response().status();
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  private static String refused(String listener) {
    return "okapi_client_connections_refused_total{listener=\"" + listener + "\"}";
  }

  private static String metrics(GatewayFixture gw) {
    return gw.request().get("/_/metrics").asString();
  }
}
