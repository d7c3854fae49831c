package io.okapigw.core.upstream;

import io.okapigw.core.routing.Endpoint;

/**
 * Where a module connection goes: the address and whether it speaks TLS. Instances at one origin
 * (paths under one host and port) share its connections.
 *
 * @param host host name or address
 * @param port port
 * @param ssl whether the connection speaks TLS
 */
record Origin(String host, int port, boolean ssl) {

  static Origin of(Endpoint instance) {
    return new Origin(instance.host(), instance.port(), instance.ssl());
  }

  /**
   * @return the host to connect to: an IPv6 address without its brackets
   */
  String address() {
    return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
  }

  /**
   * @return {@code host:port}, the {@code Host} header of the requests sent there
   */
  String authority() {
    return host.indexOf(':') >= 0 && !host.startsWith("[")
        ? "[" + host + "]:" + port
        : host + ":" + port;
  }
}
