package io.okapigw.perf.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

class JavaProcessTest {

  @Test
  void freePort_isBelowTheEphemeralRangeAndBindable() throws Exception {
    int port = JavaProcess.freePort();

    assertThat(port).isBetween(JavaProcess.FIRST_PORT, JavaProcess.LAST_PORT).isLessThan(32_768);
    try (ServerSocket socket = new ServerSocket(port)) {
      assertThat(socket.getLocalPort()).isEqualTo(port);
    }
  }
}
