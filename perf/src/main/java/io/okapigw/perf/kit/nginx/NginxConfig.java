package io.okapigw.perf.kit.nginx;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * nginx as a lean reverse proxy (what the gateway is compared with, and the load balancer in front
 * of a cluster): one worker, in the foreground, listening on 127.0.0.1 only; its upstream servers
 * with nginx's defaults (passive health: {@code max_fails=1 fail_timeout=10s}; {@code
 * proxy_next_upstream error timeout}: a request that could not be sent goes to the next server, a
 * POST already sent does not); keep-alive connections to them ({@code keepalive}, HTTP/1.1, {@code
 * Connection} cleared) and from clients (no request limit, as our gateway has none); 64 KB proxy
 * buffers; request bodies up to 1 MB kept in memory (its worker, run as {@code nobody} when started
 * by root, could not write them to the directory); no access log; responses streamed, never spooled
 * to disk; pid, error log and temporary files in a directory of its own.
 *
 * @param dir where nginx keeps its pid, log and temporary files
 * @param port the port nginx listens on
 * @param upstreamPorts the ports of the upstream servers on 127.0.0.1 (the module, or the gateway
 *     nodes)
 * @param connections the keep-alive connections to the upstream nginx keeps idle
 * @param withFastcgiUwsgiScgi whether the nginx build has those modules (their temporary paths are
 *     set only then: an unknown directive stops nginx)
 */
public record NginxConfig(
    Path dir,
    int port,
    List<Integer> upstreamPorts,
    int connections,
    boolean withFastcgiUwsgiScgi) {

  public NginxConfig {
    upstreamPorts = List.copyOf(upstreamPorts);
    if (upstreamPorts.isEmpty()) {
      throw new IllegalArgumentException("nginx needs at least one upstream server");
    }
  }

  /**
   * @param versionOutput what {@code nginx -V} printed (its configure arguments)
   * @return whether the fastcgi, uwsgi and scgi modules are all built in
   */
  public static boolean hasFastcgiUwsgiScgi(String versionOutput) {
    return !versionOutput.contains("--without-http_fastcgi_module")
        && !versionOutput.contains("--without-http_uwsgi_module")
        && !versionOutput.contains("--without-http_scgi_module");
  }

  /**
   * @return the text of {@code nginx.conf}
   */
  public String text() {
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
          client_body_buffer_size 1m;
          proxy_temp_path %1$s/proxy;
        %5$s
          keepalive_requests 100000000;
          upstream module {
        %3$s
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
        .formatted(dir, port, servers(), connections, otherTempPaths());
  }

  private String servers() {
    return upstreamPorts.stream()
        .map(p -> "    server 127.0.0.1:" + p + ";")
        .collect(Collectors.joining("\n    "));
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
