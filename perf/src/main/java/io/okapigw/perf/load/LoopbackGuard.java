package io.okapigw.perf.load;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The project rule for load tests: only loopback targets ({@code 127.0.0.0/8}, {@code ::1}, {@code
 * localhost}). Other host names are refused without being resolved, so no DNS answer can point the
 * driver elsewhere.
 */
final class LoopbackGuard {

  private static final String OCTET = "(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
  private static final Pattern IPV4 = Pattern.compile("127(\\." + OCTET + "){3}");

  private LoopbackGuard() {}

  /**
   * @param url the gateway's base URL, e.g. {@code http://localhost:9130}
   * @return the parsed URL
   * @throws IllegalArgumentException naming {@code --gateway} if the URL is not an http URL or its
   *     host is not a loopback address
   */
  static URI check(String url) {
    return check("--gateway", url);
  }

  /**
   * @param flag the flag that named the URL, for the message ({@code --gateway}, {@code --vs})
   * @param url a gateway's base URL
   * @return the parsed URL
   * @throws IllegalArgumentException naming {@code flag} if the URL is not an http URL or its host
   *     is not a loopback address
   */
  static URI check(String flag, String url) {
    URI uri = parse(flag, url);
    if (!isLoopback(uri.getHost())) {
      throw new IllegalArgumentException(
          flag
              + " "
              + url
              + ": host "
              + uri.getHost()
              + " is not a loopback address; only 127.0.0.0/8, ::1 and localhost may be load-tested");
    }
    return uri;
  }

  /**
   * @return whether {@code host} (as {@link URI#getHost()} gives it) is a loopback address
   */
  static boolean isLoopback(String host) {
    if (host == null) {
      return false;
    }
    String h = host.toLowerCase(Locale.ROOT);
    if (h.equals("localhost") || IPV4.matcher(h).matches()) {
      return true;
    }
    if (!h.startsWith("[") || !h.endsWith("]")) {
      return false;
    }
    try {
      // a bracketed literal is parsed, never looked up
      return InetAddress.getByName(h).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }

  private static URI parse(String flag, String url) {
    try {
      URI uri = new URI(url);
      if (!"http".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null) {
        throw new IllegalArgumentException(
            flag + " must be an http://host:port URL, was '" + url + "'");
      }
      return uri;
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(flag + " is not a URL: '" + url + "'");
    }
  }
}
