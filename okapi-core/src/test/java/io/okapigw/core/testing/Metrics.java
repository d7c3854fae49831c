package io.okapigw.core.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpMethod;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Values read off a gateway's {@code /_/metrics} (Prometheus text), as a scraper reads them. */
public final class Metrics {

  private Metrics() {}

  /**
   * @return {@code /_/metrics} of the gateway on {@code port}, read with {@code client} (on its
   *     pooled connections)
   */
  public static String scrape(HttpClientAgent client, int port) {
    return client
        .request(HttpMethod.GET, port, "localhost", "/_/metrics")
        .compose(req -> req.send().compose(res -> res.body()))
        .await()
        .toString();
  }

  /**
   * @return the value of the first series of {@code name}; fails the test if there is none
   */
  public static double value(String metrics, String name) {
    Matcher m =
        Pattern.compile("(?m)^" + Pattern.quote(name) + "(?:\\{[^}]*})? (\\S+)$").matcher(metrics);
    assertThat(m.find()).as(name + " in /_/metrics").isTrue();
    return Double.parseDouble(m.group(1));
  }
}
