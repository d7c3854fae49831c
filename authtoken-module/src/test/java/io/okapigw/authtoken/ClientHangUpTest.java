package io.okapigw.authtoken;

import static io.okapigw.authtoken.TestModule.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.testsupport.Await;
import io.vertx.core.Vertx;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client that hangs up in the middle of its request body (closes or resets the connection during
 * {@code POST /authn/login}) is a client's doing: one DEBUG line, never an ERROR with a stack
 * trace, which anyone could repeat to fill the module's log.
 */
class ClientHangUpTest {

  @TempDir Path tmp;

  private Vertx vertx;
  private TestModule module;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    module = TestModule.deploy(vertx, TestModule.options(tmp), Clock.systemUTC());
  }

  @AfterEach
  void stop() {
    module.undeploy();
    await(vertx.close());
  }

  @Test
  void hangUpDuringLoginBody_closed_oneDebugLineNoError() throws Exception {
    hangUp(false);
  }

  @Test
  void hangUpDuringLoginBody_reset_oneDebugLineNoError() throws Exception {
    hangUp(true);
  }

  private void hangUp(boolean reset) throws Exception {
    try (LogCapture log = new LogCapture("io.okapigw.authtoken")) {
      try (Socket socket = new Socket("127.0.0.1", module.port())) {
        OutputStream out = socket.getOutputStream();
        out.write(
            ("POST /authn/login HTTP/1.1\r\nHost: x\r\nX-Okapi-Tenant: diku\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 500\r\n\r\n{\"username\":")
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        if (reset) {
          socket.setSoLinger(true, 0);
        }
      }
      Await.until(() -> log.text().contains("client left"), "the module logged the client left");
      assertThat(log.text())
          .contains("client left")
          .doesNotContain("ERROR")
          .doesNotContain("Exception");
      assertThat(log.text().lines().filter(l -> l.contains("/authn/login"))).hasSize(1);
    }
  }
}
