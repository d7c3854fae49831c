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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Module answers framed every way the project has met, relayed through the listener and both
 * module-client paths: the client gets the answer framed by the gateway (the module's length, or
 * chunks when the module's answer had none), its body exactly the body the module's framing
 * delimits, and the client's connection stays in step (a second request on it is answered as its
 * own); an answer cut short never reaches the client as complete.
 */
class AnswerFramingCorpusTest {

  private static final FramingGateway.Shared gateways = new FramingGateway.Shared();

  @AfterAll
  static void stop() {
    gateways.close();
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("relayed")
  void moduleAnswer_clientGetsItFramedByTheGateway_connectionInStep(Path path, Case c)
      throws IOException {
    FramingGateway gw = gateways.get();
    gw.module.answer(c.answer());
    try (Client client = gw.connect()) {
      client.send(request(path, "/first"));
      Answer answer = client.answer();
      assertThat(answer).as(c.name()).isNotNull();
      assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
      assertThat(answer.complete()).as(answer.toString()).isTrue();
      assertThat(answer.body()).isEqualTo("ok");
      assertThat(answer.framing())
          .as(answer.toString())
          .isEqualTo(path == Path.STREAMED ? c.relayedAs() : "length 2");
      assertThat(answer.headers()).doesNotContainKey("connection");
      gw.module.next();
      gw.module.answer("HTTP/1.1 200 OK\r\nContent-Length: 6\r\nConnection: close\r\n\r\nsecond");
      client.send(request(path, "/second"));
      Answer second = client.answer();
      assertThat(second).isNotNull();
      assertThat(second.body()).as(second.toString()).isEqualTo("second");
    }
    RawModule.Connection got = gw.module.next();
    assertThat(got.requests()).hasSize(1);
    assertThat(got.requests().get(0).requestLine()).contains(path.path + "/second ");
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("cut")
  void moduleAnswerCut_neverReachesTheClientAsComplete(Path path, Case c) throws IOException {
    FramingGateway gw = gateways.get();
    gw.module.answer(c.answer());
    try (Client client = gw.connect()) {
      client.send(request(path, "/first"));
      Answer answer = client.answer();
      if (answer != null && answer.complete()) {
        assertThat(answer.status()).as(answer.toString()).isGreaterThanOrEqualTo(500);
      }
      gw.module.next();
    }
  }

  /**
   * HTTP/1.0 has no chunks: an answer of a length nobody knows in advance ends with the connection,
   * whatever keep-alive the client asked for.
   */
  @Test
  void http10KeepAlive_answerOfUnknownLength_endsWithTheConnection() throws IOException {
    FramingGateway gw = gateways.get();
    gw.module.answer("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nok");
    try (Client client = gw.connect()) {
      client.send("GET /s HTTP/1.0\r\nConnection: keep-alive\r\n" + TENANT + "\r\n");
      Answer answer = client.answer();
      assertThat(answer).isNotNull();
      assertThat(answer.status()).isEqualTo(200);
      assertThat(answer.framing()).as(answer.toString()).isEqualTo("close");
      assertThat(answer.complete()).as(answer.toString()).isTrue();
      assertThat(answer.body()).isEqualTo("ok");
    }
    gw.module.next();
  }

  private static String request(Path path, String rest) {
    return path == Path.STREAMED
        ? "GET " + path.path + rest + " HTTP/1.1\r\nHost: x\r\n" + TENANT + "\r\n"
        : "POST "
            + path.path
            + rest
            + " HTTP/1.1\r\nHost: x\r\n"
            + TENANT
            + "Content-Length: 5\r\n\r\nhello";
  }

  /**
   * A module's answer.
   *
   * @param answer its bytes, as the module writes them before it half-closes
   * @param relayedAs how the client gets it framed when it is streamed; null for an answer cut
   */
  record Case(String name, String answer, String relayedAs) {
    @Override
    public String toString() {
      return name;
    }
  }

  static List<Case> relayedCases() {
    String ok = "HTTP/1.1 200 OK\r\n";
    return List.of(
        new Case("one byte long", ok + "Content-Length: 2\r\n\r\nokX", "length 2"),
        new Case(
            "a second answer after it",
            ok + "Content-Length: 2\r\n\r\nok" + ok + "Content-Length: 4\r\n\r\nevil",
            "length 2"),
        new Case(
            "Connection: Content-Length",
            ok + "Connection: Content-Length\r\nContent-Length: 2\r\n\r\nok",
            "length 2"),
        new Case(
            "Connection: keep-alive, Content-Length, one byte long",
            ok + "Connection: keep-alive, Content-Length\r\nContent-Length: 2\r\n\r\nokX",
            "length 2"),
        new Case(
            "Connection: Transfer-Encoding",
            ok
                + "Connection: Transfer-Encoding\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "2\r\nok\r\n0\r\n\r\n",
            "chunked"),
        new Case(
            "chunk extensions",
            ok + "Transfer-Encoding: chunked\r\n\r\n1;a=b\r\no\r\n1;c\r\nk\r\n0;d\r\n\r\n",
            "chunked"),
        new Case(
            "no framing, ends with the connection", ok + "Connection: close\r\n\r\nok", "chunked"));
  }

  static List<Case> cutCases() {
    String ok = "HTTP/1.1 200 OK\r\n";
    return List.of(
        new Case("one byte short", ok + "Content-Length: 3\r\n\r\nok", null),
        new Case(
            "Connection: Content-Length, one byte short",
            ok + "Connection: Content-Length\r\nContent-Length: 3\r\n\r\nok",
            null),
        new Case("chunked, cut", ok + "Transfer-Encoding: chunked\r\n\r\n3\r\nok", null),
        new Case(
            "Content-Length and chunked",
            ok + "Content-Length: 9\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n",
            null),
        new Case("two lengths", ok + "Content-Length: 2\r\nContent-Length: 3\r\n\r\nok", null));
  }

  static List<Arguments> relayed() {
    return everywhere(relayedCases());
  }

  static List<Arguments> cut() {
    return everywhere(cutCases());
  }

  private static List<Arguments> everywhere(List<Case> cases) {
    List<Arguments> all = new ArrayList<>();
    for (Path path : Path.values()) {
      for (Case c : cases) {
        all.add(Arguments.of(path, c));
      }
    }
    return all;
  }
}
