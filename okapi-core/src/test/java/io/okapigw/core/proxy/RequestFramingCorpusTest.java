package io.okapigw.core.proxy;

import static io.okapigw.core.proxy.FramingGateway.TENANT;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.core.proxy.FramingGateway.Answer;
import io.okapigw.core.proxy.FramingGateway.Client;
import io.okapigw.core.proxy.FramingGateway.Path;
import io.okapigw.core.testing.RawModule;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every request-smuggling class the project has met, sent on a raw socket through the listener and
 * both module-client paths (a body streamed, a body sent whole), and what the module then received,
 * byte for byte as a strict server reads it: one request, framed as the gateway decided from what
 * its codec read (the length, chunked, or no body), its body the client's body and nothing after
 * it; or, for a head two parsers could frame two ways, the client's refusal and nothing at all at
 * the module.
 */
class RequestFramingCorpusTest {

  /** A complete request, with the permissions header only the gateway may write, as a body. */
  static final String SMUGGLED =
      "GET /smuggled HTTP/1.1\r\nHost: x\r\n"
          + TENANT
          + "X-Okapi-Permissions: [\"okapi.all\"]\r\n\r\n";

  private static final FramingGateway.Shared gateways = new FramingGateway.Shared();

  @AfterAll
  static void stop() {
    gateways.close();
  }

  /**
   * The finding (issue 42): {@code Connection} named {@code Content-Length}, the gateway dropped it
   * from the copy of the headers and wrote the body unframed; the module read it as a second
   * request, one that skipped tenant, routing and auth.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("paths")
  void connectionNamesContentLength_moduleGetsOneFramedRequest_theSmuggledOneAsItsBody(Path path)
      throws IOException {
    FramingGateway gw = gateways.get();
    try (Client client = gw.connect()) {
      client.send(
          "POST "
              + path.path
              + " HTTP/1.1\r\nHost: x\r\n"
              + TENANT
              + "Connection: keep-alive, Content-Length\r\n"
              + "Content-Length: "
              + SMUGGLED.length()
              + "\r\n\r\n"
              + SMUGGLED);
      Answer answer = client.answer();
      assertThat(answer).isNotNull();
      assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
      assertThat(answer.body()).isEqualTo("ok");
    }
    RawModule.Connection got = gw.module.next();
    assertThat(got.problem()).as(got.toString()).isNull();
    assertThat(got.requests()).as(got.toString()).hasSize(1);
    RawModule.Request request = got.requests().get(0);
    assertThat(request.requestLine()).isEqualTo("POST " + path.path + " HTTP/1.1");
    assertThat(request.framing()).isEqualTo("length " + SMUGGLED.length());
    assertThat(request.body()).isEqualTo(SMUGGLED);
    assertThat(got.text()).endsWith("\r\n\r\n" + SMUGGLED);
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("forwarded")
  void framingClass_moduleGetsOneRequestFramedByTheGateway(Path path, Case c) throws IOException {
    FramingGateway gw = gateways.get();
    try (Client client = gw.connect()) {
      client.send(c.request(path));
      Answer answer = client.answer();
      assertThat(answer).as(c.name()).isNotNull();
      assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
      assertThat(answer.body()).isEqualTo("ok");
      assertThat(answer.complete()).isTrue();
    }
    RawModule.Connection got = gw.module.next();
    assertThat(got.problem()).as(got.toString()).isNull();
    assertThat(got.requests()).as(got.toString()).hasSize(1);
    RawModule.Request request = got.requests().get(0);
    assertThat(request.requestLine()).isEqualTo("POST " + path.path + " HTTP/1.1");
    assertThat(request.framing())
        .as(got.toString())
        .isEqualTo(path == Path.STREAMED ? c.streamedAs() : "length " + c.body().length());
    assertThat(request.body()).isEqualTo(c.body());
    assertThat(request.headers("X-Okapi-Permissions")).isEmpty();
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("refused")
  void framingClass_refused_nothingReachesTheModule(Path path, Case c) throws IOException {
    FramingGateway gw = gateways.get();
    try (Client client = gw.connect()) {
      client.send(c.request(path));
      Answer answer = client.answer();
      assertThat(answer).as(c.name()).isNotNull();
      assertThat(answer.status()).as(answer.toString()).isEqualTo(c.status());
      assertThat(client.rest()).isEmpty();
    }
    try (Client probe = gw.connect()) {
      probe.send("GET " + path.path + "/probe HTTP/1.1\r\nHost: x\r\n" + TENANT + "\r\n");
      assertThat(probe.answer().status()).isEqualTo(200);
    }
    RawModule.Connection got = gw.module.next();
    assertThat(got.requests()).as(got.toString()).hasSize(1);
    assertThat(got.requests().get(0).requestLine()).startsWith("GET " + path.path + "/probe ");
  }

  /**
   * A request of the corpus.
   *
   * @param version its HTTP version
   * @param headers its header lines but Host and the tenant's, each ending CRLF (or as sent)
   * @param wire its body as sent
   * @param body its body as read
   * @param streamedAs how the module must see it framed when it is streamed ({@code "length N"},
   *     {@code "chunked"}, {@code "none"}); null for a refused request
   * @param status the client's answer to a refused request
   */
  record Case(
      String name,
      String version,
      String headers,
      String wire,
      String body,
      String streamedAs,
      int status) {
    String request(Path path) {
      return "POST "
          + path.path
          + " "
          + version
          + "\r\nHost: x\r\n"
          + TENANT
          + headers
          + "\r\n"
          + wire;
    }

    @Override
    public String toString() {
      return name;
    }
  }

  private static Case forward(
      String name, String version, String headers, String wire, String body, String streamedAs) {
    return new Case(name, version, headers, wire, body, streamedAs, 200);
  }

  private static Case length(String name, String version, String headers, String body) {
    return forward(
        name,
        version,
        headers + "Content-Length: " + body.length() + "\r\n",
        body,
        body,
        "length " + body.length());
  }

  private static Case refuse(String name, String headers, String wire, int status) {
    return new Case(name, "HTTP/1.1", headers, wire, null, null, status);
  }

  static String chunked(String body) {
    return Integer.toHexString(body.length()) + "\r\n" + body + "\r\n0\r\n\r\n";
  }

  static List<Case> forwardedCases() {
    String n = Integer.toString(SMUGGLED.length());
    return List.of(
        length(
            "Connection: keep-alive, Content-Length",
            "HTTP/1.1",
            "Connection: keep-alive, Content-Length\r\n",
            SMUGGLED),
        length(
            "Connection: Content-Length alone",
            "HTTP/1.1",
            "Connection: Content-Length\r\n",
            SMUGGLED),
        length(
            "Connection: content-length, upper/lower case",
            "HTTP/1.1",
            "Connection: content-LENGTH\r\n",
            SMUGGLED),
        length(
            "Connection named Content-Length, body empty",
            "HTTP/1.1",
            "Connection: Content-Length\r\n",
            ""),
        forward(
            "Connection named Content-Length, no body",
            "HTTP/1.1",
            "Connection: Content-Length\r\n",
            "",
            "",
            "none"),
        forward(
            "Connection: Transfer-Encoding",
            "HTTP/1.1",
            "Connection: Transfer-Encoding\r\nTransfer-Encoding: chunked\r\n",
            chunked(SMUGGLED),
            SMUGGLED,
            "chunked"),
        forward(
            "Connection: Content-Length, chunked",
            "HTTP/1.1",
            "Connection: Content-Length\r\nTransfer-Encoding: chunked\r\n",
            chunked(SMUGGLED),
            SMUGGLED,
            "chunked"),
        forward(
            "chunk extensions",
            "HTTP/1.1",
            "Transfer-Encoding: chunked\r\n",
            "5;a=b\r\nhello\r\n6;x;y=\"z\"\r\n world\r\n0;last\r\n\r\n",
            "hello world",
            "chunked"),
        forward(
            "chunked with a trailer",
            "HTTP/1.1",
            "Transfer-Encoding: chunked\r\n",
            "5\r\nhello\r\n0\r\nContent-Length: 99\r\n\r\n",
            "hello",
            "chunked"),
        length("HTTP/1.0 with a body", "HTTP/1.0", "", "hello"),
        length(
            "HTTP/1.0 keep-alive, Connection: Content-Length",
            "HTTP/1.0",
            "Connection: keep-alive, Content-Length\r\n",
            SMUGGLED),
        length(
            "obs-fold hiding a Content-Length",
            "HTTP/1.1",
            "X-Folded: a\r\n Content-Length: " + n + "0\r\n",
            SMUGGLED),
        forward(
            "Content-Length with tabs around",
            "HTTP/1.1",
            "Content-Length:\t" + n + "\t\r\n",
            SMUGGLED,
            SMUGGLED,
            "length " + n));
  }

  static List<Case> refusedCases() {
    String n = Integer.toString(SMUGGLED.length());
    String chunkedSmuggled = "0\r\n\r\n" + SMUGGLED;
    String cl = "Content-Length: " + chunkedSmuggled.length() + "\r\n";
    return List.of(
        refuse("CL and TE", cl + "Transfer-Encoding: chunked\r\n", chunkedSmuggled, 400),
        refuse("TE and CL", "Transfer-Encoding: chunked\r\n" + cl, chunkedSmuggled, 400),
        refuse(
            "CL and TE, Connection: Content-Length",
            "Connection: Content-Length\r\n" + cl + "Transfer-Encoding: chunked\r\n",
            chunkedSmuggled,
            400),
        refuse(
            "two Content-Lengths, same value",
            "Content-Length: " + n + "\r\nContent-Length: " + n + "\r\n",
            SMUGGLED,
            400),
        refuse(
            "two Content-Lengths, different values",
            "Content-Length: 0\r\nContent-Length: " + n + "\r\n",
            SMUGGLED,
            400),
        refuse(
            "two Content-Lengths in one line",
            "Content-Length: " + n + ", " + n + "\r\n",
            SMUGGLED,
            400),
        refuse("Content-Length with a sign", "Content-Length: +" + n + "\r\n", SMUGGLED, 400),
        refuse("Content-Length not a number", "Content-Length: " + n + "x\r\n", SMUGGLED, 400),
        refuse("whitespace before the colon", "Content-Length : " + n + "\r\n", SMUGGLED, 400),
        refuse("TE gzip, chunked", "Transfer-Encoding: gzip, chunked\r\n", chunkedSmuggled, 501),
        refuse(
            "TE chunked, identity",
            "Transfer-Encoding: chunked, identity\r\n",
            chunkedSmuggled,
            501),
        refuse("TE identity", "Transfer-Encoding: identity\r\n", SMUGGLED, 501),
        refuse(
            "TE folded onto a second line",
            "Transfer-Encoding: gzip\r\n ,chunked\r\n",
            chunkedSmuggled,
            501),
        refuse(
            "TE chunked twice",
            "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n",
            chunkedSmuggled,
            400),
        new Case(
            "HTTP/1.0 chunked",
            "HTTP/1.0",
            "Transfer-Encoding: chunked\r\n",
            chunkedSmuggled,
            null,
            null,
            400));
  }

  static List<Arguments> paths() {
    List<Arguments> all = new ArrayList<>();
    for (Path path : Path.values()) {
      all.add(Arguments.of(path));
    }
    return all;
  }

  static List<Arguments> forwarded() {
    return everywhere(forwardedCases());
  }

  static List<Arguments> refused() {
    return everywhere(refusedCases());
  }

  private static List<Arguments> everywhere(List<Case> cases) {
    List<Arguments> all = new ArrayList<>();
    for (Arguments path : paths()) {
      for (Case c : cases) {
        all.add(Arguments.of(path.get()[0], c));
      }
    }
    return all;
  }
}
