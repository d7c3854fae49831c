package io.okapigw.it.hostile;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * A response read from a {@link RawConnection}.
 *
 * @param version the status line's first word ({@code HTTP/1.1})
 * @param headers header values by lower-case name, in the order received
 */
record RawResponse(String version, int status, Map<String, List<String>> headers, byte[] body) {

  /**
   * @return the first value of header {@code name} (lower case), or null
   */
  String header(String name) {
    List<String> values = headers.get(name);
    return values == null ? null : values.get(0);
  }

  String text() {
    return new String(body, StandardCharsets.UTF_8);
  }

  /**
   * @return whether the gateway said it closes the connection after this response
   */
  boolean closes() {
    return "close".equalsIgnoreCase(header("connection"));
  }

  @Override
  public String toString() {
    String text = text();
    return (version.equals("HTTP/1.1") ? "" : version + " ")
        + status
        + " "
        + headers
        + " "
        + (text.length() > 300 ? text.substring(0, 300) + "..." : text);
  }
}
