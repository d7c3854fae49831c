package io.okapigw.folio.containers;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.testsupport.FreePorts;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@code modules} says where its modules listen, as they do. */
class ModulesCommandTest {

  private final Vertx vertx = Vertx.vertx();
  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @AfterEach
  void close() throws Exception {
    vertx.close().await(30, TimeUnit.SECONDS);
  }

  @Test
  void start_logLineNamesEveryModulesPort() throws Exception {
    int port = FreePorts.belowEphemeralRange();
    ModulesOptions options =
        ModulesOptions.from(
            ModulesOptions.SPEC.read(
                List.of(
                    "--host",
                    "127.0.0.1",
                    "--port",
                    Integer.toString(port),
                    "--patrons",
                    "5",
                    "--items",
                    "5")));

    ModulesCommand.Listening listening =
        ModulesCommand.start(vertx, options).await(60, TimeUnit.SECONDS);

    int modules = listening.modules();
    assertThat(modules).isEqualTo(10);
    assertThat(listening.manifestPort()).isEqualTo(port);
    assertThat(listening.message())
        .startsWith(
            modules + " simulated modules on 127.0.0.1:" + (port + 1) + "-" + (port + modules));
    for (int p = port + 1; p <= port + modules; p++) {
      assertThat(accepts(p)).as("port %d (of the range logged) listens", p).isTrue();
    }
  }

  /** Whether an HTTP server answers there (any status), the exchange over before the test ends. */
  private boolean accepts(int port) throws InterruptedException {
    try {
      http.send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/")).build(),
          HttpResponse.BodyHandlers.discarding());
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
