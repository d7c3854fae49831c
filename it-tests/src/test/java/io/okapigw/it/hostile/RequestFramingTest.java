package io.okapigw.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.it.hostile.Backend.Recorded;
import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Request smuggling shapes on raw sockets against the gateway JVM: a head two parsers could frame
 * two ways is refused and its connection closed, and the request hidden in its body never reaches
 * the module; {@code Host} must be there once; absolute-form targets are routed in origin form and
 * reach the admin API only where the listener serves it; chunk extensions are read, a broken chunk
 * size refused.
 */
@ExtendWith(HostileGateway.Resolver.class)
class RequestFramingTest {

  private static final String DIKU = "X-Okapi-Tenant: diku\r\n";

  /** A complete request to the module, hidden in a body. */
  private static final String SMUGGLED = "GET /s/smuggled HTTP/1.1\r\nHost: x\r\n" + DIKU + "\r\n";

  private static final Duration CLOSE_WAIT = HostileGateway.ANSWER_BOUND;

  private static HostileGateway gw;

  @BeforeAll
  static void start(HostileGateway gateway) {
    gw = gateway;
  }

  @BeforeEach
  void forget() {
    gw.backend.drain();
  }

  private static RawConnection connect() throws IOException {
    return RawConnection.open(gw.port());
  }

  /** Asserts the response refuses with {@code status} and the connection then closes. */
  private static RawResponse refusedAndClosed(RawConnection c, int status) throws IOException {
    RawResponse response = c.response();
    assertThat(response.status()).as(response.toString()).isEqualTo(status);
    assertThat(response.closes()).as("Connection: close in " + response).isTrue();
    assertThat(c.closedWithin(CLOSE_WAIT)).isLessThan(CLOSE_WAIT);
    return response;
  }

  private static void moduleSawNothing() throws IOException {
    assertThat(gw.forwarded()).extracting(Recorded::uri).isEmpty();
  }

  @Test
  void contentLengthAndChunked_400Closed_hiddenRequestNeverForwarded() throws Exception {
    String body = "0\r\n\r\n" + SMUGGLED;
    try (RawConnection c = connect()) {
      c.send(
          "POST /s/echo HTTP/1.1\r\nHost: x\r\n"
              + DIKU
              + "Content-Length: "
              + body.length()
              + "\r\nTransfer-Encoding: chunked\r\n\r\n"
              + body);
      RawResponse response = refusedAndClosed(c, 400);
      assertThat(response.text()).contains("Content-Length", "Transfer-Encoding");
    }
    moduleSawNothing();
  }

  @Test
  void unknownTransferCoding_501Closed_bytesAfterTheHeadNeverReadAsARequest() throws Exception {
    try (RawConnection c = connect()) {
      c.send(
          "POST /s/echo HTTP/1.1\r\nHost: x\r\n"
              + DIKU
              + "Transfer-Encoding: xchunked"
              + "\r\n\r\n"
              + SMUGGLED);
      assertThat(refusedAndClosed(c, 501).text()).contains("xchunked");
    }
    moduleSawNothing();
  }

  @ParameterizedTest(name = "{0} Transfer-Encoding: {1} -> {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "HTTP/1.1 | gzip, chunked | 501",
        "HTTP/1.1 | chunked, identity | 501",
        "HTTP/1.1 | chunked\\r\\nTransfer-Encoding: chunked | 400",
        "HTTP/1.1 | chunked\\r\\nContent-Length: 0 | 400",
        "HTTP/1.0 | chunked | 400"
      })
  void transferCodingOtherThanChunkedAlone_refusedAndClosed_hiddenRequestNeverForwarded(
      String version, String codings, int status) throws Exception {
    try (RawConnection c = connect()) {
      c.send(
          "POST /s/echo "
              + version
              + "\r\nHost: x\r\n"
              + DIKU
              + "Transfer-Encoding: "
              + codings.replace("\\r\\n", "\r\n")
              + "\r\n\r\n0\r\n\r\n"
              + SMUGGLED);
      refusedAndClosed(c, status);
    }
    moduleSawNothing();
  }

  @Test
  void http11WithoutHost_400Closed() throws Exception {
    try (RawConnection c = connect()) {
      c.send("GET /s/ping HTTP/1.1\r\n" + DIKU + "\r\n");
      assertThat(refusedAndClosed(c, 400).text()).contains("Host");
    }
    moduleSawNothing();
  }

  @Test
  void twoHostHeaders_400Closed() throws Exception {
    try (RawConnection c = connect()) {
      c.send("GET /s/ping HTTP/1.1\r\nHost: a\r\nHost: b\r\n" + DIKU + "\r\n");
      refusedAndClosed(c, 400);
    }
    moduleSawNothing();
  }

  /** With an Origin, vert.x-web's router logged ERROR for a Host it could not read. */
  @Test
  void hostNotAHostAndPort_400Closed() throws Exception {
    try (RawConnection c = connect()) {
      c.send("GET /s/ping HTTP/1.1\r\nHost: a b\r\nOrigin: https://ui.example\r\n" + DIKU + "\r\n");
      assertThat(refusedAndClosed(c, 400).text()).contains("Host");
    }
    moduleSawNothing();
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({"HTTP/2.0, 505", "HTTP/0.9, 505", "http/1.1, 400", "HTTPS/1.1, 400", "HTTP/1, 400"})
  void versionOtherThanHttp1_refusedInHttp1Closed(String version, int status) throws Exception {
    try (RawConnection c = connect()) {
      c.send("GET /s/ping " + version + "\r\nHost: x\r\n" + DIKU + "\r\n");
      RawResponse response = refusedAndClosed(c, status);
      assertThat(response.version()).isIn("HTTP/1.0", "HTTP/1.1");
    }
    moduleSawNothing();
  }

  @Test
  void laterHttp1MinorVersion_servedAsHttp11() throws IOException {
    try (RawConnection c = connect()) {
      c.send("GET /s/ping HTTP/1.2\r\nHost: x\r\n" + DIKU + "\r\n");
      RawResponse response = c.response();
      assertThat(response.version()).isEqualTo("HTTP/1.1");
      assertThat(response.text()).isEqualTo("pong");
    }
  }

  /** It was proxied, the module's 2xx relayed, and the connection then read as a tunnel. */
  @Test
  void connect_501Closed_neverForwarded() throws Exception {
    try (RawConnection c = connect()) {
      c.send("CONNECT /s/echo HTTP/1.1\r\nHost: x\r\n" + DIKU + "\r\n" + SMUGGLED);
      assertThat(refusedAndClosed(c, 501).text()).contains("CONNECT");
    }
    moduleSawNothing();
  }

  /** vert.x-web's CORS handler fails it with an exception of its own: it was a 500. */
  @Test
  void originNotAnOrigin_403NeverForwarded() throws Exception {
    try (RawConnection c = connect()) {
      c.send("GET /s/cors HTTP/1.1\r\nHost: x\r\nOrigin: https://a b\r\n" + DIKU + "\r\n");
      RawResponse response = c.response();
      assertThat(response.status()).as(response.toString()).isEqualTo(403);
    }
    moduleSawNothing();
  }

  /**
   * Netty refuses two Content-Length values in HTTP/1.1 only: an HTTP/1.0 keep-alive request with
   * two was read by the first, and the rest of its body as a second request that reached the
   * module.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "Content-Length: 5\r\nContent-Length: LONG",
        "Content-Length: LONG\r\nContent-Length: 5",
        "Content-Length: 5, LONG"
      })
  void http10TwoContentLengths_400Closed_hiddenRequestNeverForwarded(String lengths)
      throws Exception {
    String hidden = "GET /s/http10-hidden HTTP/1.0\r\nConnection: keep-alive\r\n" + DIKU + "\r\n";
    String body = "hello" + hidden;
    try (RawConnection c = connect()) {
      c.send(
          "POST /s/http10-echo HTTP/1.0\r\nConnection: keep-alive\r\n"
              + DIKU
              + lengths.replace("LONG", Integer.toString(body.length()))
              + "\r\n\r\n"
              + body);
      refusedAndClosed(c, 400);
    }
    moduleSawNothingUnder("/s/http10-");
  }

  /**
   * Issue 42: a header named in {@code Connection} is hop-by-hop and not copied to the module, and
   * the gateway framed the module's request from those copies: {@code Connection: keep-alive,
   * Content-Length} sent the body unframed, and the module read the request hidden in it as one of
   * its own, with the permissions header only the gateway may write. The module now gets the body
   * as the body, framed as the gateway read it.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "HTTP/1.1|Connection: keep-alive, Content-Length|length",
        "HTTP/1.1|Connection: Content-Length|length",
        "HTTP/1.0|Connection: keep-alive, Content-Length|length",
        "HTTP/1.1|Connection: Transfer-Encoding|chunked",
        "HTTP/1.1|Connection: Content-Length, Transfer-Encoding|chunked"
      })
  void connectionNamesTheFraming_bodyForwardedAsTheBody_hiddenRequestNeverForwarded(String shape)
      throws Exception {
    String[] parts = shape.split("\\|");
    String hidden =
        "GET /s/framing-hidden HTTP/1.1\r\nHost: x\r\n"
            + DIKU
            + "X-Okapi-Permissions: [\"okapi.all\"]\r\n\r\n";
    boolean chunked = parts[2].equals("chunked");
    String framing =
        chunked
            ? "Transfer-Encoding: chunked\r\n\r\n"
                + Integer.toHexString(hidden.length())
                + "\r\n"
                + hidden
                + "\r\n0\r\n\r\n"
            : "Content-Length: " + hidden.length() + "\r\n\r\n" + hidden;
    try (RawConnection c = connect()) {
      RawResponse response =
          c.send(
                  "POST /s/framing-echo "
                      + parts[0]
                      + "\r\nHost: x\r\n"
                      + DIKU
                      + parts[1]
                      + "\r\n"
                      + framing)
              .response();
      assertThat(response.status()).as(response.toString()).isEqualTo(200);
      assertThat(response.text()).isEqualTo("got " + hidden.length() + " bytes");
    }
    assertThat(gw.forwarded())
        .extracting(Recorded::uri)
        .filteredOn(u -> u.startsWith("/s/framing-"))
        .containsExactly("/s/framing-echo");
  }

  /** Control characters (ESC included), bytes beyond ASCII and {@code #} were forwarded as sent. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "/s/target-\u001b[2Jclear",
        "/s/target-a\u0001b",
        "/s/target-a\u007fb",
        "/s/target-caf\u00e9",
        "/s/target-x#fragment",
        "/s/target-x?q=\u00ff",
        "/s/target-x?q=a\u0000b"
      })
  void targetWithControlNonAsciiOrFragment_400NeverForwarded(String target) throws Exception {
    try (RawConnection c = connect()) {
      RawResponse response =
          c.send("GET " + target + " HTTP/1.1\r\nHost: x\r\n" + DIKU + "\r\n").response();
      assertThat(response.status()).as(response.toString()).isEqualTo(400);
      assertThat(response.text()).contains("request target");
    }
    moduleSawNothingUnder("/s/target-");
  }

  /** Robust to requests of tests before this one still arriving: only these paths count. */
  private static void moduleSawNothingUnder(String prefix) throws IOException {
    assertThat(gw.forwarded()).extracting(Recorded::uri).noneMatch(u -> u.startsWith(prefix));
  }

  @Test
  void http10WithoutHost_served() throws IOException {
    try (RawConnection c = connect()) {
      c.send("GET /s/ping HTTP/1.0\r\n" + DIKU + "\r\n");
      assertThat(c.response().text()).isEqualTo("pong");
    }
  }

  @Test
  void absoluteFormTarget_routedAndForwardedInOriginForm() throws IOException {
    try (RawConnection c = connect()) {
      c.send("GET http://evil.example/s/abs?q=1 HTTP/1.1\r\nHost: x\r\n" + DIKU + "\r\n");
      assertThat(c.response().status()).isEqualTo(200);
    }
    assertThat(gw.backend.drain()).extracting(Recorded::uri).containsExactly("/s/abs?q=1");
  }

  @Test
  void absoluteFormTarget_adminApiOnPublicListener_403_onAdminListener_servedAsAdminApi()
      throws IOException {
    String tenants = "http://127.0.0.1:" + gw.adminPort() + "/_/proxy/tenants";
    try (RawConnection c = connect()) {
      c.send(
          "GET "
              + tenants
              + " HTTP/1.1\r\nHost: x\r\nX-Okapi-Token: "
              + gw.superToken()
              + "\r\n\r\n");
      assertThat(c.response().status()).isEqualTo(403);
      c.send("GET HTTP://evil/_/proxy/tenants?x=1 HTTP/1.1\r\nHost: x\r\n\r\n");
      assertThat(c.response().status()).isEqualTo(403);
    }
    try (RawConnection c = RawConnection.open(gw.adminPort())) {
      c.send("GET http://evil.example/_/proxy/tenants HTTP/1.1\r\nHost: x\r\n\r\n");
      assertThat(c.response().status()).as("no token").isEqualTo(401);
      c.send(
          "GET http://evil.example/_/proxy/tenants HTTP/1.1\r\nHost: x\r\nX-Okapi-Token: "
              + gw.superToken()
              + "\r\n\r\n");
      RawResponse response = c.response();
      assertThat(response.status()).isEqualTo(200);
      assertThat(response.text()).contains("\"diku\"");
    }
  }

  @Test
  void chunkExtensions_readAsTheRfcSays() throws IOException {
    try (RawConnection c = connect()) {
      c.send(
          "POST /s/echo HTTP/1.1\r\nHost: x\r\n"
              + DIKU
              + "Transfer-Encoding: chunked\r\n\r\n"
              + "5;foo=bar\r\nhello\r\n6;a=\"b c\";d\r\n world\r\n0;last=1\r\n\r\n");
      RawResponse response = c.response();
      assertThat(response.status()).isEqualTo(200);
      assertThat(response.text()).isEqualTo("got 11 bytes");
    }
  }

  @Test
  void invalidChunkSize_400Closed() throws IOException {
    try (RawConnection c = connect()) {
      c.send(
          "POST /s/echo HTTP/1.1\r\nHost: x\r\n"
              + DIKU
              + "Transfer-Encoding: chunked\r\n\r\n"
              + "zz\r\nhello\r\n0\r\n\r\n"
              + SMUGGLED);
      assertThat(refusedAndClosed(c, 400).text()).contains("chunk");
    }
    assertThat(gw.forwarded()).extracting(Recorded::path).doesNotContain("/s/smuggled");
  }

  @Test
  void pipelined_requestsAfterARefusedOneNeverServed() throws Exception {
    try (RawConnection c = connect()) {
      c.send(
          "GET /s/1 HTTP/1.1\r\nHost: x\r\n"
              + DIKU
              + "\r\n"
              + "GET /s/2 HTTP/1.1\r\n"
              + DIKU
              + "\r\n"
              + "GET /s/3 HTTP/1.1\r\nHost: x\r\n"
              + DIKU
              + "\r\n");
      assertThat(c.response().status()).isEqualTo(200);
      refusedAndClosed(c, 400);
    }
    assertThat(gw.forwarded()).extracting(Recorded::uri).containsExactly("/s/1");
  }
}
