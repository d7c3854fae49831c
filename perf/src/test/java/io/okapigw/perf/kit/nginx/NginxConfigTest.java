package io.okapigw.perf.kit.nginx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class NginxConfigTest {

  private final NginxConfig config =
      new NginxConfig(Path.of("/tmp/hop"), 9402, List.of(9401), 64, true);

  @Test
  void text_oneWorkerInForegroundOnLoopbackOnly() {
    String text = config.text();
    assertThat(text)
        .contains("worker_processes 1;")
        .contains("daemon off;")
        .contains("listen 127.0.0.1:9402;")
        .contains("access_log off;");
    assertThat(text.lines().filter(l -> l.trim().startsWith("listen"))).hasSize(1);
  }

  @Test
  void text_keepAliveUpstreamWithHttp11AndConnectionCleared() {
    assertThat(config.text())
        .contains("server 127.0.0.1:9401;")
        .contains("keepalive 64;")
        .contains("proxy_http_version 1.1;")
        .contains("proxy_set_header Connection \"\";")
        .contains("proxy_pass http://module;");
  }

  @Test
  void text_64KbBuffersAndNothingSpooledToDisk() {
    assertThat(config.text())
        .contains("proxy_buffer_size 64k;")
        .contains("proxy_buffers 8 64k;")
        .contains("proxy_max_temp_file_size 0;")
        .contains("client_body_buffer_size 1m;");
  }

  @Test
  void text_pidLogAndTemporaryFilesInItsDirectory() {
    assertThat(config.text())
        .contains("pid /tmp/hop/nginx.pid;")
        .contains("error_log /tmp/hop/error.log")
        .contains("client_body_temp_path /tmp/hop/client_body;")
        .contains("proxy_temp_path /tmp/hop/proxy;")
        .contains("fastcgi_temp_path /tmp/hop/fastcgi;")
        .contains("uwsgi_temp_path /tmp/hop/uwsgi;")
        .contains("scgi_temp_path /tmp/hop/scgi;");
  }

  @Test
  void text_withoutThoseModules_setsNoTemporaryPathOfTheirs() {
    String text = new NginxConfig(Path.of("/tmp/hop"), 9402, List.of(9401), 64, false).text();
    assertThat(text).doesNotContain("fastcgi").doesNotContain("uwsgi").doesNotContain("scgi");
  }

  @Test
  void hasFastcgiUwsgiScgi_readsTheConfigureArguments() {
    assertThat(NginxConfig.hasFastcgiUwsgiScgi("configure arguments: --with-http_ssl_module"))
        .isTrue();
    assertThat(
            NginxConfig.hasFastcgiUwsgiScgi(
                "configure arguments: --without-http_uwsgi_module --with-threads"))
        .isFalse();
  }

  @Test
  void text_oneServerLinePerUpstreamPort() {
    String text =
        new NginxConfig(Path.of("/tmp/lb"), 22040, List.of(22041, 22042, 22043), 32, true).text();
    assertThat(text.lines().map(String::trim).filter(l -> l.startsWith("server 127.0.0.1:")))
        .containsExactly(
            "server 127.0.0.1:22041;", "server 127.0.0.1:22042;", "server 127.0.0.1:22043;");
  }

  @Test
  void noUpstream_refused() {
    assertThatThrownBy(() -> new NginxConfig(Path.of("/tmp/lb"), 22040, List.of(), 32, true))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void text_balancedBraces() {
    String text = config.text();
    assertThat(text.chars().filter(c -> c == '{').count())
        .isEqualTo(text.chars().filter(c -> c == '}').count());
  }
}
