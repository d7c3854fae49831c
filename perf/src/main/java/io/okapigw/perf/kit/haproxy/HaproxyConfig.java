package io.okapigw.perf.kit.haproxy;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * HAProxy as the load balancer in front of a cluster of gateway nodes: HTTP mode, in the
 * foreground, listening on 127.0.0.1 only; the nodes as servers chosen round-robin, each checked
 * actively ({@code option httpchk GET <healthPath>}, {@code http-check expect status 200}, every
 * {@code inter 500ms}, out after {@code fall 2} failed checks, back after {@code rise 2}), so a
 * draining node (readiness 503) stops getting requests within about a second. Retries only where
 * HAProxy's documentation calls them safe: {@code retries 3} with {@code option redispatch} (a
 * retry goes to another node) on {@code conn-failure} (the request could not be sent) for every
 * method; {@code empty-response} and {@code response-timeout} (the request was sent, nothing came
 * back) only for GET, HEAD and OPTIONS ({@code http-request disable-l7-retry} for the others: a
 * POST the node may have processed is never replayed). {@code http-reuse safe}: a client's first
 * request goes on a connection of its own, only its later ones reuse idle server connections.
 *
 * @param port the port HAProxy listens on
 * @param serverPorts the ports of the servers on 127.0.0.1 (the gateway nodes)
 * @param healthPath the path HAProxy checks (200: ready; anything else: not)
 */
public record HaproxyConfig(int port, List<Integer> serverPorts, String healthPath) {

  public HaproxyConfig {
    serverPorts = List.copyOf(serverPorts);
    if (serverPorts.isEmpty()) {
      throw new IllegalArgumentException("HAProxy needs at least one server");
    }
    if (!healthPath.startsWith("/") || healthPath.chars().anyMatch(Character::isWhitespace)) {
      throw new IllegalArgumentException("health path must be a path: " + healthPath);
    }
  }

  /**
   * @return the text of {@code haproxy.cfg}
   */
  public String text() {
    return """
        global
          maxconn 4096

        defaults
          mode http
          timeout connect 2s
          timeout client 120s
          timeout server 120s
          timeout http-request 30s
          timeout http-keep-alive 60s
          timeout queue 30s
          timeout check 2s
          retries 3
          option redispatch
          retry-on conn-failure empty-response response-timeout
          http-reuse safe

        frontend gateway
          bind 127.0.0.1:%1$d
          default_backend nodes

        backend nodes
          balance roundrobin
          http-request disable-l7-retry unless METH_GET || METH_HEAD || METH_OPTIONS
          option httpchk GET %2$s
          http-check expect status 200
          default-server inter 500ms fall 2 rise 2
        %3$s
        """
        .formatted(port, healthPath, servers());
  }

  private String servers() {
    return IntStream.range(0, serverPorts.size())
        .mapToObj(i -> "  server node" + (i + 1) + " 127.0.0.1:" + serverPorts.get(i) + " check")
        .collect(Collectors.joining("\n"));
  }
}
