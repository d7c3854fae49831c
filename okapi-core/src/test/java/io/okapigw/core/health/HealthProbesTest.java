package io.okapigw.core.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.config.Settings;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.RawClient;
import io.okapigw.testsupport.FreePorts;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Okapi's {@code healthPort} probes answered while its limit on connections open at once ({@code
 * server.health-max-connections}, 64) is full of connections that sit idle, sending nothing or a
 * head never completed: a new connection past the limit closes the oldest idle one and is served.
 * The header timeout is 10 minutes, far beyond every wait ({@link RawClient#TIMEOUT_MILLIS}), so a
 * connection closed here was closed for the probe.
 */
class HealthProbesTest {

  private static final String LIVENESS = "GET /liveness HTTP/1.1\r\nHost: x\r\n\r\n";
  private static final String READINESS = "GET /readiness HTTP/1.1\r\nHost: x\r\n\r\n";
  private static final int CAP = 64;

  @Test
  void healthPort_capFullOfIdleConnections_probesAnswered_oldestIdleClosed() throws IOException {
    int port = FreePorts.belowEphemeralRange();
    List<RawClient> idle = new ArrayList<>();
    try (GatewayFixture gw =
        new GatewayFixture(
            GatewayOptions.from(
                Settings.of(
                    Map.of(
                        "healthPort", Integer.toString(port), "server.header-timeout", "10m"))))) {
      for (int i = 0; i < CAP; i++) {
        RawClient client = RawClient.connect(port);
        idle.add(client);
        if (i % 2 == 1) {
          client.send("GET /liveness HTTP/1.1\r\nHost: x\r\n"); // a head never completed
        }
      }

      try (RawClient liveness = RawClient.connect(port);
          RawClient readiness = RawClient.connect(port)) {
        liveness.send(LIVENESS);
        assertThat(liveness.response().status()).as("/liveness").isEqualTo(204);
        readiness.send(READINESS);
        assertThat(readiness.response().status()).as("/readiness").isEqualTo(204);
      }

      assertThat(idle.get(0).readTextUntilClosed()).as("the oldest idle connection").isEmpty();
      assertThat(idle.get(1).readTextUntilClosed()).as("the next oldest").isEmpty();
      idle.get(2).send(READINESS);
      assertThat(idle.get(2).response().status()).as("an idle one not closed").isEqualTo(204);
    } finally {
      idle.forEach(RawClient::close);
    }
  }
}
