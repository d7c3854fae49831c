package io.okapigw.perf.hop;

import java.net.URI;
import java.util.List;

/**
 * Where wrk sends one {@link Via}'s requests, and whose CPU counts as the proxy's.
 *
 * @param via the way
 * @param base {@code http://127.0.0.1:PORT}
 * @param headers request headers wrk sends ({@code Name: value})
 * @param proxyPids the proxy's processes (empty for direct or an unknown {@code --vs} pid)
 * @param metrics the proxy's Prometheus metrics for heap samples, or null
 */
record Target(Via via, String base, List<String> headers, List<Long> proxyPids, URI metrics) {

  /**
   * @return the URL answering {@code size} bytes
   */
  String url(long size) {
    return base + HopModule.PREFIX + size;
  }
}
