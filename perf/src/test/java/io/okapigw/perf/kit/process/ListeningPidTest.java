package io.okapigw.perf.kit.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

class ListeningPidTest {

  @Test
  void listeningInode_onlyTheListeningSocketOfThePort() {
    String table =
        """
          sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
           0: 0100007F:24B3 0100007F:9C40 01 00000000:00000000 00:00000000 00000000     0        0 111 1
           1: 0100007F:24B3 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 222 1
           2: 00000000:24B4 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 333 1
        """;
    assertThat(ListeningPid.listeningInode(table, 9395)).contains("222");
    assertThat(ListeningPid.listeningInode(table, 9396)).contains("333");
    assertThat(ListeningPid.listeningInode(table, 9397)).isEmpty();
  }

  @Test
  void of_aPortThisJvmListensOn_isThisJvm() throws IOException {
    try (ServerSocket socket = new ServerSocket()) {
      socket.bind(new InetSocketAddress("127.0.0.1", 0));
      long self = ProcessHandle.current().pid();

      assertThat(ListeningPid.of(socket.getLocalPort())).hasValue(self);
      assertThat(ListeningPid.ofJvm(socket.getLocalPort())).hasValue(self);
    }
  }

  @Test
  void of_aPortNobodyListensOn_isEmpty() throws IOException {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    assertThat(ListeningPid.of(port)).isEmpty();
  }
}
