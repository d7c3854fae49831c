package io.okapigw.perf.kit.haproxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.okapigw.perf.kit.process.Binaries;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HaproxyConfigTest {

  private final HaproxyConfig config =
      new HaproxyConfig(9540, List.of(9601, 9602, 9603), "/_/proxy/health");

  @Test
  void everyNode_aCheckedServer() {
    assertThat(config.text())
        .contains("bind 127.0.0.1:9540")
        .contains("  server node1 127.0.0.1:9601 check\n")
        .contains("  server node2 127.0.0.1:9602 check\n")
        .contains("  server node3 127.0.0.1:9603 check\n")
        .contains("option httpchk GET /_/proxy/health")
        .contains("http-check expect status 200")
        .contains("default-server inter 500ms fall 2 rise 2");
  }

  @Test
  void retries_onlyWhereSafe() {
    assertThat(config.text())
        .contains("retries 3")
        .contains("option redispatch")
        .contains("retry-on conn-failure empty-response response-timeout")
        .contains("http-request disable-l7-retry unless METH_GET || METH_HEAD || METH_OPTIONS")
        .contains("http-reuse safe")
        .doesNotContain("all-retryable-errors");
  }

  @Test
  void noServers_refused() {
    assertThatThrownBy(() -> new HaproxyConfig(9540, List.of(), "/_/proxy/health"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least one server");
  }

  @Test
  void healthPathNotAPath_refused() {
    assertThatThrownBy(() -> new HaproxyConfig(9540, List.of(1), "/a b"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("health path");
  }

  @Test
  void haproxyAcceptsIt(@TempDir Path dir) throws Exception {
    Optional<Path> haproxy = Binaries.findHaproxy(System.getenv("PATH"));
    if (haproxy.isEmpty()) {
      System.out.println("skipped: no haproxy installed (apt-get install -y haproxy)");
    }
    assumeTrue(haproxy.isPresent(), "no haproxy installed");
    Path cfg = dir.resolve("haproxy.cfg");
    Files.writeString(cfg, config.text());
    Process p =
        new ProcessBuilder(haproxy.get().toString(), "-c", "-f", cfg.toString())
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor()).as(out).isZero();
    assertThat(out).doesNotContainIgnoringCase("warning");
  }
}
