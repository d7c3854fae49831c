package io.okapigw.perf.hop;

import java.nio.file.Path;

/**
 * The nginx the gateway is compared with, configured as a lean reverse proxy: one worker, in the
 * foreground, listening on 127.0.0.1 only; keep-alive connections to the module ({@code keepalive},
 * HTTP/1.1, {@code Connection} cleared) and from clients (no request limit, as our gateway has
 * none); 64 KB proxy buffers; no access log; responses streamed, never spooled to disk; pid, error
 * log and temporary files in a directory of its own.
 *
 * @param dir where nginx keeps its pid, log and temporary files
 * @param port the port nginx listens on
 * @param modulePort the module's port on 127.0.0.1
 * @param connections the keep-alive connections to the module nginx keeps idle
 * @param withFastcgiUwsgiScgi whether the nginx build has those modules (their temporary paths are
 *     set only then: an unknown directive stops nginx)
 */
record NginxConfig(
    Path dir, int port, int modulePort, int connections, boolean withFastcgiUwsgiScgi) {

  /**
   * @param versionOutput what {@code nginx -V} printed (its configure arguments)
   * @return whether the fastcgi, uwsgi and scgi modules are all built in
   */
  static boolean hasFastcgiUwsgiScgi(String versionOutput) {
    return !versionOutput.contains("--without-http_fastcgi_module")
        && !versionOutput.contains("--without-http_uwsgi_module")
        && !versionOutput.contains("--without-http_scgi_module");
  }

  /**
   * @return the text of {@code nginx.conf}
   */
  String text() {
    return """
        worker_processes 1;
        daemon off;
        pid %1$s/nginx.pid;
        error_log %1$s/error.log warn;
        events {
          worker_connections 4096;
        }
        http {
          access_log off;
          client_body_temp_path %1$s/client_body;
          proxy_temp_path %1$s/proxy;
        %5$s
          keepalive_requests 100000000;
          upstream module {
            server 127.0.0.1:%3$d;
            keepalive %4$d;
            keepalive_requests 100000000;
          }
          server {
            listen 127.0.0.1:%2$d;
            location / {
              proxy_pass http://module;
              proxy_http_version 1.1;
              proxy_set_header Connection "";
              proxy_buffer_size 64k;
              proxy_buffers 8 64k;
              proxy_max_temp_file_size 0;
            }
          }
        }
        """
        .formatted(dir, port, modulePort, connections, otherTempPaths());
  }

  private String otherTempPaths() {
    if (!withFastcgiUwsgiScgi) {
      return "";
    }
    return """
          fastcgi_temp_path %1$s/fastcgi;
          uwsgi_temp_path %1$s/uwsgi;
          scgi_temp_path %1$s/scgi;"""
        .formatted(dir);
  }
}
