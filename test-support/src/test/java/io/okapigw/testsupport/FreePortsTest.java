package io.okapigw.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

class FreePortsTest {

  @Test
  void belowEphemeralRange_isBelowTheEphemeralRangeAndBindable() throws Exception {
    int port = FreePorts.belowEphemeralRange();

    assertThat(port).isBetween(FreePorts.FIRST_PORT, FreePorts.LAST_PORT).isLessThan(32_768);
    try (ServerSocket socket = new ServerSocket(port)) {
      assertThat(socket.getLocalPort()).isEqualTo(port);
    }
  }
}
