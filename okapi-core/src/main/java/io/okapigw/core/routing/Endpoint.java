package io.okapigw.core.routing;

import java.net.URI;

/**
 * A module instance's address, parsed once when routing tables are built rather than on every
 * request.
 *
 * @param url the base URL as registered ({@code http://host:port})
 * @param host host name or address
 * @param port port (the scheme's default if the URL has none)
 * @param ssl whether the scheme is https
 * @param path the URL's path without a trailing {@code /} ({@code ""} for none): system calls and
 *     health checks go under it, as in Okapi; proxied requests keep the client's path
 */
public record Endpoint(String url, String host, int port, boolean ssl, String path) {

  /**
   * @param url an absolute http(s) URL, as validated by discovery
   */
  public static Endpoint parse(String url) {
    URI uri = URI.create(url);
    boolean ssl = "https".equalsIgnoreCase(uri.getScheme());
    int port = uri.getPort() > 0 ? uri.getPort() : ssl ? 443 : 80;
    String path = uri.getRawPath() == null ? "" : uri.getRawPath().replaceFirst("/+$", "");
    return new Endpoint(url, uri.getHost(), port, ssl, path);
  }
}
