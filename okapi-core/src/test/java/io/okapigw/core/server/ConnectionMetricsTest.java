package io.okapigw.core.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.Metrics;
import io.okapigw.core.testing.RawClient;
import io.okapigw.testsupport.Await;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.PoolOptions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code okapi_client_connections} counts the client connections open on the node, on every event
 * loop's listener, and {@code okapi_client_connections_closed_total} those closed.
 */
class ConnectionMetricsTest {

  @RegisterExtension final GatewayFixture gw = new GatewayFixture();

  @Test
  void openAndClosed_counted() throws Exception {
    // one kept-alive connection for the scrapes, open before the first reading
    HttpClientAgent scraper =
        gw.vertx()
            .createHttpClient(
                new HttpClientOptions().setKeepAlive(true), new PoolOptions().setHttp1MaxSize(1));
    double[] before = read(scraper);

    List<RawClient> clients = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      RawClient client = RawClient.connect(gw.gateway().port());
      client.send("GET /_/proxy/health HTTP/1.1\r\nHost: x\r\n\r\n");
      assertThat(client.response().status()).isEqualTo(200);
      clients.add(client);
    }
    double[] open = read(scraper);
    assertThat(open[0]).isEqualTo(before[0] + 3);
    assertThat(open[1]).isEqualTo(before[1]);

    for (RawClient client : clients) {
      client.close();
    }
    Await.until(() -> read(scraper)[1] >= before[1] + 3, "3 closes counted");
    double[] after = read(scraper);
    assertThat(after[1]).isEqualTo(before[1] + 3);
    assertThat(after[0]).isEqualTo(before[0]);
  }

  /**
   * @return open connections, connections closed
   */
  private double[] read(HttpClientAgent scraper) {
    String metrics = Metrics.scrape(scraper, gw.gateway().port());
    return new double[] {
      Metrics.value(metrics, "okapi_client_connections"),
      Metrics.value(metrics, "okapi_client_connections_closed_total")
    };
  }
}
