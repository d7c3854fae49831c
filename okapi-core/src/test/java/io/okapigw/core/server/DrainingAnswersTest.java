package io.okapigw.core.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.okapigw.testsupport.FreePorts;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerOptions;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An answer written after the drain began says {@code Connection: close} even when the drain's
 * notice has not yet run on the connection's event loop: a busy loop runs its pending reads (a
 * module's answer) before its queued tasks. Here the answer is written in the very task that begins
 * the drain, so the notice is queued behind it — deterministically what a loaded machine does now
 * and then (GracefulDrainTest failed so under load).
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class DrainingAnswersTest {

  private final Vertx vertx = Vertx.vertx();
  private final Drain drain = new Drain(new DrainOptions(Duration.ofSeconds(60), Duration.ZERO));

  @AfterEach
  void close() {
    vertx.close().await();
  }

  @Test
  void answerWrittenAsTheDrainBegins_saysConnectionClose() throws Exception {
    ConnectionMetrics metrics = new ConnectionMetrics(new SimpleMeterRegistry());
    ServerOptions timeouts =
        new ServerOptions(Duration.ofMinutes(1), Duration.ofMinutes(2), 100, 100, 100);
    int port = FreePorts.belowEphemeralRange();
    Listener spec =
        new Listener(
            "127.0.0.1",
            port,
            request -> {
              if (request.path().equals("/drain")) {
                drain.begin();
              }
              request.response().end("answer");
            },
            metrics.limit("public", 100));
    new HttpListener(
            vertx,
            HttpListener.loops(vertx, 1),
            new HttpServerOptions(),
            timeouts,
            drain,
            metrics,
            spec,
            false)
        .listen("127.0.0.1", port)
        .await();
    HttpClient http = HttpClient.newHttpClient();

    HttpResponse<String> before =
        http.send(get(port, "/before"), HttpResponse.BodyHandlers.ofString());
    HttpResponse<String> draining =
        http.send(get(port, "/drain"), HttpResponse.BodyHandlers.ofString());

    assertThat(before.headers().firstValue("Connection")).isEmpty();
    assertThat(draining.statusCode()).isEqualTo(200);
    assertThat(draining.body()).isEqualTo("answer");
    assertThat(draining.headers().firstValue("Connection")).hasValue("close");
  }

  private static HttpRequest get(int port, String path) {
    return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build();
  }
}
