package io.okapigw.perf.hop;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.perf.fullfake.GatewayProbe;
import org.junit.jupiter.api.Test;

/** The small readers of other programs' output: /proc/net/tcp, Prometheus text, the module path. */
class ProbesTest {

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
  void heapUsed_sumsTheHeapPools() {
    String metrics =
        """
        # TYPE jvm_memory_used_bytes gauge
        jvm_memory_used_bytes{area="heap",id="G1 Eden Space"} 1.048576E7
        jvm_memory_used_bytes{area="heap",id="G1 Old Gen"} 2.097152E7
        jvm_memory_used_bytes{area="nonheap",id="Metaspace"} 5.0E7
        """;
    assertThat(GatewayProbe.heapUsed(metrics)).isEqualTo(31_457_280L);
    assertThat(GatewayProbe.heapUsed("nothing")).isEqualTo(-1);
  }

  @Test
  void moduleSize_onlyDigitsUnderThePrefix() {
    assertThat(HopModule.size("/hop/230")).isEqualTo(230);
    assertThat(HopModule.size("/hop/0")).isZero();
    assertThat(HopModule.size("/hop/")).isEqualTo(-1);
    assertThat(HopModule.size("/hop/1x")).isEqualTo(-1);
    assertThat(HopModule.size("/other/1")).isEqualTo(-1);
    assertThat(HopModule.size("/hop/99999999999999")).isEqualTo(-1);
  }
}
