package io.okapigw.perf.kit.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class BinariesTest {

  @Test
  void nginx_debiansFirst() {
    assertThat(Binaries.nginx("/opt/bin", p -> true)).isEqualTo(Binaries.DEBIAN_NGINX);
  }

  @Test
  void nginx_elseOnThePath() {
    assertThat(Binaries.nginx("/a:/opt/bin", p -> p.equals(Path.of("/opt/bin/nginx"))))
        .isEqualTo(Path.of("/opt/bin/nginx"));
  }

  @Test
  void nginx_missing_namesThePackages() {
    assertThatThrownBy(() -> Binaries.nginx("/a:/b", p -> false))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("nginx is missing")
        .hasMessageContaining("nginx-light")
        .hasMessageContaining("/usr/sbin/nginx");
  }

  @Test
  void wrk_missing_namesThePackage() {
    assertThatThrownBy(() -> Binaries.wrk(null, p -> true))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("apt-get install -y wrk");
    assertThatThrownBy(() -> Binaries.wrk("/a", p -> false)).hasMessageContaining("wrk is missing");
  }

  @Test
  void wrk_onThePath() {
    assertThat(Binaries.wrk("/x::/usr/bin", p -> p.startsWith("/usr/bin")))
        .isEqualTo(Path.of("/usr/bin/wrk"));
  }

  @Test
  void haproxy_debiansFirst_elseOnThePath() {
    assertThat(Binaries.findHaproxy("/opt/bin", p -> true)).contains(Binaries.DEBIAN_HAPROXY);
    assertThat(Binaries.findHaproxy("/a:/opt/bin", p -> p.equals(Path.of("/opt/bin/haproxy"))))
        .contains(Path.of("/opt/bin/haproxy"));
    assertThat(Binaries.findHaproxy("/a:/b", p -> false)).isEmpty();
  }
}
