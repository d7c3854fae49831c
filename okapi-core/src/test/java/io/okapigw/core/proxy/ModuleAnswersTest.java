package io.okapigw.core.proxy;

import static io.okapigw.core.testing.GatewayFixture.handler;
import static io.okapigw.core.testing.GatewayFixture.module;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.RawClient;
import io.okapigw.core.testing.RawClient.Response;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Answers of a module that break HTTP never reach the client or the gateway's pool: a {@code 101}
 * to a request that asked for no upgrade (the gateway forwards no {@code Upgrade}), and a body
 * after the answer to a {@code HEAD} (read on a pooled connection as the next request's answer).
 * The module is a raw socket that answers each request head by its path, keeping its connection.
 */
class ModuleAnswersTest {

  @RegisterExtension final GatewayFixture gw = new GatewayFixture();
  private final AtomicInteger connections = new AtomicInteger();
  private final AtomicInteger closed = new AtomicInteger();
  private NetServer raw;

  @BeforeEach
  void start() {
    raw = gw.vertx().createNetServer().connectHandler(this::serve).listen(0, "127.0.0.1").await();
    gw.createTenant("diku");
    gw.install(
        "diku",
        module("mod-raw-1.0.0", "raw", handler("*", "/raw/*")),
        "http://127.0.0.1:" + raw.actualPort());
  }

  private void serve(NetSocket socket) {
    connections.incrementAndGet();
    socket.closeHandler(v -> closed.incrementAndGet());
    StringBuilder pending = new StringBuilder();
    socket.handler(
        bytes -> {
          pending.append(bytes.toString(StandardCharsets.ISO_8859_1));
          for (int end; (end = pending.indexOf("\r\n\r\n")) >= 0; ) {
            String head = pending.substring(0, end);
            pending.delete(0, end + 4);
            socket.write(answer(head));
          }
        });
  }

  private static String answer(String head) {
    String path = head.split(" ", 3)[1];
    return switch (path) {
      case "/raw/upgrade" ->
          "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: evil\r\n\r\n"
              + "not http at all";
      case "/raw/head" -> "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello";
      default -> "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
    };
  }

  private Response send(String method, String path) throws IOException {
    try (RawClient client = RawClient.connect(gw.gateway().port())) {
      return client
          .send(method + " " + path + " HTTP/1.1\r\nHost: x\r\nX-Okapi-Tenant: diku\r\n\r\n")
          .response();
    }
  }

  @Test
  void switchingProtocolsWithoutUpgrade_502_neverRelayed_connectionNotReused() throws IOException {
    Response response = send("GET", "/raw/upgrade");
    assertThat(response.status()).as(response.toString()).isEqualTo(502);
    assertThat(response.body()).contains("mod-raw-1.0.0", "101");
    for (int i = 0; i < 3; i++) {
      Response after = send("GET", "/raw/other");
      assertThat(after.status()).as(after.toString()).isEqualTo(200);
      assertThat(after.body()).isEqualTo("ok");
    }
  }

  @Test
  void bodyAfterHeadAnswer_neverReadAsTheNextAnswer() throws IOException {
    for (int i = 0; i < 3; i++) {
      try (RawClient client = RawClient.connect(gw.gateway().port())) {
        client.send("HEAD /raw/head HTTP/1.1\r\nHost: x\r\nX-Okapi-Tenant: diku\r\n\r\n");
        assertThat(client.readHead().status()).isEqualTo(200);
      }
      Response after = send("GET", "/raw/other");
      assertThat(after.status()).as("GET after HEAD %d: %s", i, after).isEqualTo(200);
      assertThat(after.body()).isEqualTo("ok");
    }
  }
}
