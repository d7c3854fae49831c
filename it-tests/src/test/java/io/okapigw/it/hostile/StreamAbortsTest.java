package io.okapigw.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.it.hostile.Backend.Held;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A relay broken midway by either side, in either direction, against the gateway JVM: the client
 * closing (FIN) or resetting during an upload and during a download, the module closing its
 * connection during an upload and during a download. Each time the other side is told at once (the
 * module's connection closed sooner than {@code proxy.idle-timeout} could close it; the client
 * answered 502 or its connection closed, never a response that looks complete), and every module
 * pool serves afterwards ({@link HostileGateway#assertPoolsServe}).
 */
@ExtendWith(HostileGateway.Resolver.class)
class StreamAbortsTest {

  private static final String DIKU = "Host: x\r\nX-Okapi-Tenant: diku\r\n";

  /**
   * How soon the module's connection must close once the client is gone: 2 s before {@code
   * proxy.idle-timeout} (6 s), which would close a stalled connection without any fix; a close at
   * once takes milliseconds, hundreds on a busy machine.
   */
  private static final Duration MODULE_CLOSED = HostileGateway.PROXY_IDLE_TIMEOUT.minusSeconds(2);

  private static final Duration BOUND = HostileGateway.ANSWER_BOUND;

  private static HostileGateway gw;

  @BeforeAll
  static void start(HostileGateway gateway) {
    gw = gateway;
  }

  private static void giveUp(RawConnection c, boolean reset) {
    if (reset) {
      c.reset();
    } else {
      c.close();
    }
  }

  @ParameterizedTest(name = "reset={0}")
  @ValueSource(booleans = {false, true})
  void clientGoneDuringUpload_moduleConnectionClosed_poolsServe(boolean reset) throws Exception {
    RawConnection c = RawConnection.open(gw.port());
    try {
      c.send("POST /s/hold HTTP/1.1\r\n" + DIKU + "Content-Length: 1000000\r\n\r\n")
          .zeros(64 * 1024);
      Held held = gw.backend.nextHeld();
      giveUp(c, reset);
      held.closed().get(MODULE_CLOSED.toMillis(), TimeUnit.MILLISECONDS);
    } finally {
      c.close();
    }
    gw.assertPoolsServe();
  }

  @ParameterizedTest(name = "reset={0}")
  @ValueSource(booleans = {false, true})
  void clientGoneDuringDownload_moduleConnectionClosed_poolsServe(boolean reset) throws Exception {
    RawConnection c = RawConnection.open(gw.port());
    try {
      c.send("GET /s/download HTTP/1.1\r\n" + DIKU + "\r\n");
      Held download = gw.backend.nextDownload();
      assertThat(c.awaitByte(BOUND)).as("the download started").isTrue();
      // the client stops reading: the gateway's and the module's buffers fill, and then it goes
      giveUp(c, reset);
      download.closed().get(MODULE_CLOSED.toMillis(), TimeUnit.MILLISECONDS);
    } finally {
      c.close();
    }
    gw.assertPoolsServe();
  }

  /**
   * The module reads 1 KiB of a declared megabyte and closes or resets: the client is answered 502.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"close", "reset", "close,chunked", "reset,chunked"})
  void moduleGoneDuringUpload_client502_poolsServe(String how) throws Exception {
    boolean chunked = how.contains("chunked");
    try (RawConnection c = RawConnection.open(gw.port())) {
      c.send(
              "POST /die/upload?"
                  + how
                  + " HTTP/1.1\r\n"
                  + DIKU
                  + (chunked
                      ? "Transfer-Encoding: chunked\r\n\r\n10000\r\n"
                      : "Content-Length: 1000000\r\n\r\n"))
          .zeros(64 * 1024);
      RawResponse response = c.response("POST", BOUND);
      assertThat(response.status()).as(response.toString()).isEqualTo(502);
      assertThat(response.text()).contains("mod-dying-1.0.0");
    }
    gw.assertPoolsServe();
  }

  /**
   * The module sends 10,000 bytes of a declared megabyte (or of a chunked body) and closes or
   * resets: the client gets the bytes that came and then its connection closed, never a response
   * that reads as complete (the rest of a Content-Length missing, or no last chunk), or a 502 if
   * the module's end came before the response head was relayed.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"close", "reset", "close,chunked", "reset,chunked"})
  void moduleGoneDuringDownload_clientConnectionClosedResponseIncomplete_poolsServe(String how)
      throws Exception {
    try (RawConnection c = RawConnection.open(gw.port())) {
      c.send("GET /die/download?" + how + " HTTP/1.1\r\n" + DIKU + "\r\n");
      RawResponse response = null;
      IOException failure = null;
      try {
        response = c.response("GET", BOUND);
      } catch (IOException e) {
        failure = e;
      }
      if (response != null) {
        assertThat(response.status()).as("a complete response: " + response).isEqualTo(502);
      } else {
        assertThat(failure)
            .as("no answer nor close within %s", BOUND)
            .isNotInstanceOf(SocketTimeoutException.class)
            .hasMessageContaining("connection closed");
      }
    }
    gw.assertPoolsServe();
  }
}
