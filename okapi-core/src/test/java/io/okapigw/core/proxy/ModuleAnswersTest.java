package io.okapigw.core.proxy;

import static io.okapigw.core.testing.GatewayFixture.handler;
import static io.okapigw.core.testing.GatewayFixture.module;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.RawClient;
import io.okapigw.core.testing.RawClient.Response;
import io.okapigw.testsupport.Await;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Answers of a module that break HTTP never reach the client or the gateway's pool: a {@code 101}
 * to a request that asked for no upgrade (the gateway forwards no {@code Upgrade}), a body after
 * the answer to a {@code HEAD}, bytes after an answer's declared end and bytes on an idle pooled
 * connection (read on a pooled connection as the next request's answer, another tenant's). A
 * connection whose framing broke is closed, never used again: the next request of anyone goes on a
 * clean one. The module is a raw socket that answers each request head by its path, keeping its
 * connection.
 */
class ModuleAnswersTest {

  private static final String OK = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
  private static final String CHUNKED = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";

  /** Answers whose framing is broken, by the path that asks for them. */
  private static final Map<String, String> BROKEN =
      Map.of(
          // Content-Length one byte short: the last byte is left on the connection
          "/raw/short",
          "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokk",
          // a second answer nobody asked for, behind the first (response splitting)
          "/raw/split",
          OK + "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nevil",
          // a chunked body that ends, then a byte more
          "/raw/chunked-extra",
          CHUNKED + "2\r\nok\r\n0\r\n\r\nx",
          // a chunk longer than its size says
          "/raw/chunk-longer",
          CHUNKED + "1\r\nok\r\n0\r\n\r\n",
          // a chunk size that is no number
          "/raw/chunk-bad-size",
          CHUNKED + "zz\r\nok\r\n0\r\n\r\n",
          // both framings (RFC 9112 §6.3: a smuggling attempt, to be handled as an error)
          "/raw/both",
          "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n"
              + "2\r\nok\r\n0\r\n\r\n",
          // two lengths
          "/raw/two-lengths",
          "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nokk",
          // chunked in HTTP/1.0 (RFC 9112 §6.1: the framing is faulty)
          "/raw/http10-chunked",
          "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n"
              + "2\r\nok\r\n0\r\n\r\n");

  @RegisterExtension final GatewayFixture gw = new GatewayFixture();

  /** The module's connections in the order they came, each with the paths asked on it. */
  private final List<Served> served = new CopyOnWriteArrayList<>();

  private NetServer raw;

  /** One connection of the module: the paths asked on it, and whether it is closed. */
  private record Served(NetSocket socket, List<String> paths, AtomicBoolean closed) {}

  @BeforeEach
  void start() {
    raw = gw.vertx().createNetServer().connectHandler(this::serve).listen(0, "127.0.0.1").await();
    gw.createTenant("diku");
    gw.install(
        "diku",
        module("mod-raw-1.0.0", "raw", handler("*", "/raw/*")),
        "http://127.0.0.1:" + raw.actualPort());
    gw.createTenant("other");
    gw.enable("other", "mod-raw-1.0.0");
  }

  private void serve(NetSocket socket) {
    Served connection = new Served(socket, new CopyOnWriteArrayList<>(), new AtomicBoolean());
    served.add(connection);
    socket.closeHandler(v -> connection.closed().set(true));
    StringBuilder pending = new StringBuilder();
    socket.handler(
        bytes -> {
          pending.append(bytes.toString(StandardCharsets.ISO_8859_1));
          for (int end; (end = pending.indexOf("\r\n\r\n")) >= 0; ) {
            String head = pending.substring(0, end);
            pending.delete(0, end + 4);
            String path = head.split(" ", 3)[1];
            connection.paths().add(path);
            socket.write(answer(path));
          }
        });
  }

  private static String answer(String path) {
    return switch (path) {
      case "/raw/upgrade" ->
          "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: evil\r\n\r\n"
              + "not http at all";
      case "/raw/head" -> "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello";
      default -> BROKEN.getOrDefault(path, OK);
    };
  }

  private Response send(String method, String path) throws IOException {
    return send("diku", method, path);
  }

  private Response send(String tenant, String method, String path) throws IOException {
    try (RawClient client = RawClient.connect(gw.gateway().port())) {
      return client
          .send(
              method
                  + " "
                  + path
                  + " HTTP/1.1\r\nHost: x\r\nX-Okapi-Tenant: "
                  + tenant
                  + "\r\n\r\n")
          .response();
    }
  }

  /** The next requests, another tenant's, each on a connection of its own: all answered "ok". */
  private void othersAnsweredOk() throws IOException {
    for (int i = 0; i < 3; i++) {
      Response after = send("other", "GET", "/raw/other");
      assertThat(after.status()).as("another tenant's request %d: %s", i, after).isEqualTo(200);
      assertThat(after.body()).isEqualTo("ok");
    }
  }

  /** The module's connection that served {@code path} is closed and served nothing after it. */
  private void closedAfter(String path) {
    Served connection =
        served.stream().filter(s -> s.paths().contains(path)).findFirst().orElseThrow();
    Await.until(
        connection.closed()::get, "the gateway closes the module connection that served " + path);
    assertThat(connection.paths()).as("requests on that connection").endsWith(path);
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

  @ParameterizedTest
  @ValueSource(
      strings = {
        "/raw/short",
        "/raw/split",
        "/raw/chunked-extra",
        "/raw/chunk-longer",
        "/raw/chunk-bad-size",
        "/raw/both",
        "/raw/two-lengths",
        "/raw/http10-chunked"
      })
  void brokenFraming_connectionClosed_anotherTenantsNextRequestOnACleanOne(String path)
      throws IOException {
    String first;
    try (RawClient client = RawClient.connect(gw.gateway().port())) {
      first =
          client
              .send(
                  "GET "
                      + path
                      + " HTTP/1.1\r\nHost: x\r\nX-Okapi-Tenant: diku\r\nConnection: close\r\n\r\n")
              .readTextUntilClosed();
    }
    assertThat(first).as("what the client got").doesNotContain("evil");
    if (path.equals("/raw/short") || path.equals("/raw/split")) {
      // bytes after the answer's end: the answer is relayed as its head framed it
      assertThat(first).startsWith("HTTP/1.1 200 ").endsWith("\r\n\r\nok");
    }
    othersAnsweredOk();
    closedAfter(path);
  }

  @ParameterizedTest
  @ValueSource(strings = {"x", "\r\n", "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nevil"})
  void bytesOnAnIdlePooledConnection_connectionClosed_neverReadAsAnAnswer(String bytes)
      throws IOException {
    Response before = send("GET", "/raw/first");
    assertThat(before.status()).as(before.toString()).isEqualTo(200);
    Served idle = served.get(0);
    idle.socket().write(bytes);
    closedAfter("/raw/first");
    othersAnsweredOk();
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
