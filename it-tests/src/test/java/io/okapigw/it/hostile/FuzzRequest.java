package io.okapigw.it.hostile;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One HTTP/1.x request as the fuzzer builds and mutates it, kept in parts so that a mutation can
 * touch one part: the request line's three words, the header lines as raw text (so a line may be
 * anything, a colon-less one included), the line ending, and the body bytes as they go on the wire
 * (a chunked body already chunk-encoded).
 */
final class FuzzRequest {

  /** The fuzz run's header naming each request; never mutated, so the module can say who it is. */
  static final String ID_HEADER = "X-Fuzz";

  String method;
  String target;

  /** The version word, or null for none (an HTTP/0.9-style request line). */
  String version = "HTTP/1.1";

  final List<String> headers = new ArrayList<>();
  String lineEnd = "\r\n";
  byte[] body = new byte[0];

  /** Whether a mutation cut the body short of what its head declares. */
  boolean bodyShort;

  FuzzRequest(String method, String target) {
    this.method = method;
    this.target = target;
  }

  FuzzRequest header(String name, String value) {
    headers.add(name + ": " + value);
    return this;
  }

  /** Sets {@code body} with a Content-Length naming its size. */
  FuzzRequest body(byte[] bytes) {
    body = bytes;
    return header("Content-Length", Integer.toString(bytes.length));
  }

  FuzzRequest body(String text) {
    return body(text.getBytes(StandardCharsets.UTF_8));
  }

  /** Sets {@code text} as a chunked body in pieces of {@code piece} bytes. */
  FuzzRequest chunked(String text, int piece) {
    StringBuilder encoded = new StringBuilder();
    for (int i = 0; i < text.length(); i += piece) {
      String part = text.substring(i, Math.min(text.length(), i + piece));
      encoded.append(Integer.toHexString(part.length())).append("\r\n").append(part).append("\r\n");
    }
    body = encoded.append("0\r\n\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
    return header("Transfer-Encoding", "chunked");
  }

  /**
   * @return the index of the first header line named {@code name} (any case), or -1
   */
  int indexOf(String name) {
    String prefix = name.toLowerCase(Locale.ROOT) + ":";
    for (int i = 0; i < headers.size(); i++) {
      if (headers.get(i).toLowerCase(Locale.ROOT).startsWith(prefix)) {
        return i;
      }
    }
    return -1;
  }

  boolean has(String name) {
    return indexOf(name) >= 0;
  }

  /** Replaces the value of header {@code name}, or adds it. */
  FuzzRequest set(String name, String value) {
    int i = indexOf(name);
    if (i < 0) {
      return header(name, value);
    }
    headers.set(i, name + ": " + value);
    return this;
  }

  void remove(String name) {
    for (int i; (i = indexOf(name)) >= 0; ) {
      headers.remove(i);
    }
  }

  /**
   * @return whether the body sent is, as far as this simple reading of the head tells, shorter than
   *     the head declares: a mutation cut it, its Content-Length is larger, or a chunked body has
   *     no last chunk
   */
  boolean bodyIncomplete() {
    int length = indexOf("Content-Length");
    if (length >= 0) {
      String value = headers.get(length).substring("Content-Length:".length()).trim();
      if (value.matches("\\d{1,9}") && Integer.parseInt(value) > body.length) {
        return true;
      }
    }
    int coding = indexOf("Transfer-Encoding");
    boolean chunked =
        coding >= 0 && headers.get(coding).toLowerCase(Locale.ROOT).contains("chunked");
    return bodyShort
        || chunked && !new String(body, StandardCharsets.ISO_8859_1).contains("0\r\n\r\n");
  }

  /**
   * @return whether the response will have no body: a HEAD request, as the gateway reads it
   */
  boolean isHead() {
    return "HEAD".equals(method);
  }

  String id() {
    int i = indexOf(ID_HEADER);
    return i < 0 ? null : headers.get(i).substring(ID_HEADER.length() + 1).trim();
  }

  byte[] bytes() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    String line = method + " " + target + (version == null ? "" : " " + version) + lineEnd;
    out.writeBytes(line.getBytes(StandardCharsets.ISO_8859_1));
    for (String h : headers) {
      out.writeBytes((h + lineEnd).getBytes(StandardCharsets.ISO_8859_1));
    }
    out.writeBytes(lineEnd.getBytes(StandardCharsets.ISO_8859_1));
    out.writeBytes(body);
    return out.toByteArray();
  }
}
