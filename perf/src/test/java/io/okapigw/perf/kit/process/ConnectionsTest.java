package io.okapigw.perf.kit.process;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ConnectionsTest {

  // 0x55F1 = 22001: one listening socket, two accepted connections, one outgoing from 22001's
  // neighbour and one to 22001 seen from the client side (remote port), one closing
  private static final String TABLE =
      """
        sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
         0: 0100007F:55F1 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 101 1
         1: 0100007F:55F1 0100007F:9C40 01 00000000:00000000 00:00000000 00000000     0        0 102 1
         2: 0100007F:55F1 0100007F:9C41 01 00000000:00000000 00:00000000 00000000     0        0 103 1
         3: 0100007F:9C40 0100007F:55F1 01 00000000:00000000 00:00000000 00000000     0        0 104 1
         4: 0100007F:55F2 0100007F:9C42 01 00000000:00000000 00:00000000 00000000     0        0 105 1
         5: 0100007F:55F1 0100007F:9C43 06 00000000:00000000 00:00000000 00000000     0        0 106 1
      """;

  @Test
  void established_countsAcceptedConnectionsOfThePortOnly() {
    assertThat(Connections.established(TABLE, 22001)).isEqualTo(2);
    assertThat(Connections.established(TABLE, 22002)).isEqualTo(1);
    assertThat(Connections.established(TABLE, 22003)).isZero();
  }
}
