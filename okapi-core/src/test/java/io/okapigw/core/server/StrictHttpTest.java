package io.okapigw.core.server;

import static io.okapigw.core.testing.GatewayFixture.handler;
import static io.okapigw.core.testing.GatewayFixture.module;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.core.admin.AdminOptions;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.RawClient;
import io.okapigw.core.testing.RawClient.Response;
import io.okapigw.core.testing.TestModule;
import java.io.IOException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * HTTP/1.1 as RFC 9112 has a server read it, for bytes a hostile client sends on a raw socket:
 * message framing that two parsers could read two ways is refused and the connection closed, so
 * nothing after it can be taken for a request of its own (smuggling); requests without a single
 * {@code Host}, and absolute-form targets, are handled as the RFC says; chunk extensions are
 * accepted and a broken chunk answered.
 */
class StrictHttpTest {

  private static final String TENANT = "X-Okapi-Tenant: diku\r\n";

  @RegisterExtension final GatewayFixture gw = new GatewayFixture();
  private TestModule echo;

  @BeforeEach
  void start() {
    gw.createTenant("diku");
    echo =
        TestModule.start(
            gw.vertx(),
            router ->
                router
                    .route()
                    .handler(
                        ctx ->
                            ctx.request()
                                .body()
                                .onSuccess(
                                    body ->
                                        ctx.response()
                                            .end("got " + body.length() + " bytes: " + body))));
    gw.install("diku", module("mod-echo-1.0.0", "echo", handler("*", "/echo*")), echo.url());
  }

  private RawClient client() {
    return RawClient.connect(gw.gateway().port());
  }

  @Test
  void contentLengthAndChunked_400AndConnectionClosed() throws IOException {
    try (RawClient client = client()) {
      client.send(
          "POST /echo HTTP/1.1\r\nHost: x\r\n"
              + TENANT
              + "Content-Length: 5\r\n"
              + "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n");
      Response response = client.response();
      assertThat(response.status()).isEqualTo(400);
      assertThat(response.body()).contains("Content-Length", "Transfer-Encoding");
      assertThat(response.head().headers()).containsEntry("connection", "close");
      assertThat(client.readTextUntilClosed()).isEmpty();
    }
    assertThat(echo.drain()).isEmpty();
  }

  @Test
  void unknownTransferCoding_501AndClosed_bytesAfterItNeverReadAsARequest() throws IOException {
    try (RawClient client = client()) {
      client.send(
          "POST /echo HTTP/1.1\r\nHost: x\r\n"
              + TENANT
              + "Transfer-Encoding: xchunked\r\n\r\n"
              + "GET /echo/smuggled HTTP/1.1\r\nHost: x\r\n"
              + TENANT
              + "\r\n");
      Response response = client.response();
      assertThat(response.status()).isEqualTo(501);
      assertThat(response.body()).contains("xchunked");
      assertThat(client.readTextUntilClosed()).isEmpty();
    }
    assertThat(echo.drain()).isEmpty();
  }

  @Test
  void transferCodings_onlyChunkedAloneAccepted() throws IOException {
    assertThat(statusWithTransferEncoding("HTTP/1.1", "gzip, chunked")).isEqualTo(501);
    assertThat(statusWithTransferEncoding("HTTP/1.1", "chunked, gzip")).isEqualTo(501);
    assertThat(statusWithTransferEncoding("HTTP/1.1", "chunked\r\nTransfer-Encoding: chunked"))
        .isEqualTo(400);
    assertThat(statusWithTransferEncoding("HTTP/1.0", "chunked")).isEqualTo(400);
    assertThat(statusWithTransferEncoding("HTTP/1.1", "Chunked")).isEqualTo(200);
  }

  private int statusWithTransferEncoding(String version, String codings) throws IOException {
    try (RawClient client = client()) {
      client.send(
          "POST /echo "
              + version
              + "\r\nHost: x\r\n"
              + TENANT
              + "Transfer-Encoding: "
              + codings
              + "\r\n\r\n5\r\nhello\r\n0\r\n\r\n");
      return client.response().status();
    }
  }

  @Test
  void http11WithoutHost_400AndClosed() throws IOException {
    try (RawClient client = client()) {
      client.send("GET /echo HTTP/1.1\r\n" + TENANT + "\r\n");
      Response response = client.response();
      assertThat(response.status()).isEqualTo(400);
      assertThat(response.body()).contains("Host");
      assertThat(client.readTextUntilClosed()).isEmpty();
    }
    assertThat(echo.drain()).isEmpty();
  }

  @Test
  void twoHostHeaders_400AndClosed() throws IOException {
    try (RawClient client = client()) {
      client.send("GET /echo HTTP/1.1\r\nHost: a\r\nHost: b\r\n" + TENANT + "\r\n");
      assertThat(client.response().status()).isEqualTo(400);
      assertThat(client.readTextUntilClosed()).isEmpty();
    }
    assertThat(echo.drain()).isEmpty();
  }

  @Test
  void hostNotAHostAndPort_400AndClosed() throws IOException {
    for (String host : new String[] {"a b", "a/b", "[::1"}) {
      try (RawClient client = client()) {
        client.send(
            "GET /echo HTTP/1.1\r\nHost: "
                + host
                + "\r\n"
                + TENANT
                + "Origin: https://ui.example\r\n\r\n");
        Response response = client.response();
        assertThat(response.status()).as(host).isEqualTo(400);
        assertThat(response.body()).contains("Host");
        assertThat(client.readTextUntilClosed()).isEmpty();
      }
    }
    assertThat(echo.drain()).isEmpty();
    for (String host : new String[] {"", "[::1]:9130", "10.0.0.1", "gw.example:80"}) {
      try (RawClient client = client()) {
        client.send("GET /echo HTTP/1.1\r\nHost: " + host + "\r\n" + TENANT + "\r\n");
        assertThat(client.response().status()).as(host).isEqualTo(200);
      }
    }
  }

  /**
   * Netty answered 501 to any other version, echoing the client's version word in the status line
   * ({@code HTTPS/1.1 501}).
   */
  @Test
  void versions_laterHttp1ReadAsHttp11_otherMajor505_notAVersion400() throws IOException {
    try (RawClient client = client()) {
      client.send("GET /echo HTTP/1.2\r\nHost: x\r\n" + TENANT + "\r\n");
      Response response = client.response();
      assertThat(response.status()).isEqualTo(200);
    }
    assertThat(statusLine("HTTP/2.0")).startsWith("HTTP/1.").contains(" 505 ");
    assertThat(statusLine("HTTP/0.9")).startsWith("HTTP/1.").contains(" 505 ");
    for (String version : new String[] {"http/1.1", "HTTPS/1.1", "HTTP/1.10", "HTTP/1"}) {
      assertThat(statusLine(version)).as(version).startsWith("HTTP/1.").contains(" 400 ");
    }
    assertThat(echo.drain()).hasSize(1);
  }

  private String statusLine(String version) throws IOException {
    try (RawClient client = client()) {
      client.send("GET /echo " + version + "\r\nHost: x\r\n" + TENANT + "\r\n");
      String all = client.readTextUntilClosed();
      return all.substring(0, Math.max(0, all.indexOf("\r\n")));
    }
  }

  /** Vert.x would relay the module's 2xx, then read the connection as a tunnel. */
  @Test
  void connect_501AndClosed_neverForwarded() throws IOException {
    try (RawClient client = client()) {
      client.send("CONNECT /echo HTTP/1.1\r\nHost: x\r\n" + TENANT + "\r\n");
      Response response = client.response();
      assertThat(response.status()).isEqualTo(501);
      assertThat(response.body()).contains("CONNECT");
      assertThat(client.readTextUntilClosed()).isEmpty();
    }
    assertThat(echo.drain()).isEmpty();
  }

  /**
   * Netty takes the first of several Content-Length lines of an HTTP/1.0 request (it refuses them
   * in HTTP/1.1 only): the rest of the body would be read as a request of its own.
   */
  @Test
  void http10_twoContentLengths_400AndClosed_restNeverARequest() throws IOException {
    for (String lengths :
        new String[] {
          "Content-Length: 5\r\nContent-Length: 60", "Content-Length: 60\r\nContent-Length: 5"
        }) {
      try (RawClient client = client()) {
        client.send(
            "POST /echo HTTP/1.0\r\nConnection: keep-alive\r\n"
                + TENANT
                + lengths
                + "\r\n\r\nhello"
                + "GET /echo/smuggled HTTP/1.0\r\nConnection: keep-alive\r\n"
                + TENANT
                + "\r\n");
        Response response = client.response();
        assertThat(response.status()).as(lengths).isEqualTo(400);
        assertThat(response.body()).contains("Content-Length");
        assertThat(response.head().headers()).containsEntry("connection", "close");
        assertThat(client.readTextUntilClosed()).isEmpty();
      }
    }
    assertThat(echo.drain()).isEmpty();
  }

  @Test
  void contentLengthList_400InEveryVersion() throws IOException {
    for (String version : new String[] {"HTTP/1.0", "HTTP/1.1"}) {
      try (RawClient client = client()) {
        client.send(
            "POST /echo "
                + version
                + "\r\nHost: x\r\n"
                + TENANT
                + "Content-Length: 5, 5\r\n\r\nhello");
        assertThat(client.response().status()).as(version).isEqualTo(400);
      }
    }
    assertThat(echo.drain()).isEmpty();
  }

  /** RFC 3986: no control characters, no bytes beyond ASCII, no fragment in a request target. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "/echo/\u001b[31mred",
        "/echo/a\u0001b",
        "/echo/a\u007fb",
        "/echo/caf\u00e9",
        "/echo/caf\u00c3\u00a9",
        "/echo/x#frag",
        "/echo?q=#x",
        "/echo?q=a\u0000b",
        "/echo?q=\u00ff"
      })
  void target_controlCharactersNonAsciiOrFragment_400AndClosed(String target) throws IOException {
    try (RawClient client = client()) {
      client.send("GET " + target + " HTTP/1.1\r\nHost: x\r\n" + TENANT + "\r\n");
      Response response = client.response();
      assertThat(response.status()).as(target).isEqualTo(400);
      assertThat(response.body()).contains("request target");
    }
    assertThat(echo.drain()).isEmpty();
  }

  @Test
  void http10WithoutHost_served() throws IOException {
    try (RawClient client = client()) {
      client.send("GET /echo HTTP/1.0\r\n" + TENANT + "\r\n");
      assertThat(client.response().status()).isEqualTo(200);
    }
  }

  @Test
  void absoluteFormTarget_routedAndForwardedInOriginForm() throws IOException {
    try (RawClient client = client()) {
      client.send("GET http://evil.example/echo/abs?q=1 HTTP/1.1\r\nHost: x\r\n" + TENANT + "\r\n");
      assertThat(client.response().status()).isEqualTo(200);
    }
    assertThat(echo.take().uri()).isEqualTo("/echo/abs?q=1");
  }

  @Test
  void absoluteFormTarget_adminPathOnPublicListener_refusedWhenAdminNotPublic() throws IOException {
    try (GatewayFixture closed =
            new GatewayFixture(
                GatewayOptions.defaults(0).withAdmin(new AdminOptions(0, "127.0.0.1", false)));
        RawClient client = RawClient.connect(closed.gateway().port())) {
      client.send(
          "GET http://127.0.0.1:"
              + closed.gateway().adminPort()
              + "/_/proxy/tenants HTTP/1.1\r\nHost: x\r\n\r\n");
      assertThat(client.response().status()).isEqualTo(403);
      client.send("GET HTTP://evil/_/proxy/tenants?x=1 HTTP/1.1\r\nHost: x\r\n\r\n");
      assertThat(client.response().status()).isEqualTo(403);
    }
  }

  @Test
  void chunkExtensions_ignoredAsTheRfcSays() throws IOException {
    try (RawClient client = client()) {
      client.send(
          "POST /echo HTTP/1.1\r\nHost: x\r\n"
              + TENANT
              + "Transfer-Encoding: chunked"
              + "\r\n\r\n5;foo=bar\r\nhello\r\n6;a=\"b c\";d\r\n world\r\n0;last=1\r\n\r\n");
      Response response = client.response();
      assertThat(response.status()).isEqualTo(200);
      assertThat(response.body()).isEqualTo("got 11 bytes: hello world");
    }
  }

  @Test
  void invalidChunkSize_400AndClosed() throws IOException {
    try (RawClient client = client()) {
      client.send(
          "POST /echo HTTP/1.1\r\nHost: x\r\n"
              + TENANT
              + "Transfer-Encoding: chunked"
              + "\r\n\r\nzz\r\nhello\r\n0\r\n\r\n");
      Response response = client.response();
      assertThat(response.status()).isEqualTo(400);
      assertThat(response.body()).contains("chunk");
      assertThat(client.readTextUntilClosed()).isEmpty();
    }
  }

  @Test
  void pipelinedRequests_afterARefusedOne_neverServed() throws IOException {
    try (RawClient client = client()) {
      client.send(
          "GET /echo/1 HTTP/1.1\r\nHost: x\r\n"
              + TENANT
              + "\r\n"
              + "GET /echo/2 HTTP/1.1\r\n"
              + TENANT
              + "\r\n"
              + "GET /echo/3 HTTP/1.1\r\nHost: x\r\n"
              + TENANT
              + "\r\n");
      assertThat(client.response().status()).isEqualTo(200);
      assertThat(client.response().status()).isEqualTo(400);
      assertThat(client.readTextUntilClosed()).isEmpty();
    }
    assertThat(echo.drain()).extracting(TestModule.Recorded::uri).containsExactly("/echo/1");
  }
}
