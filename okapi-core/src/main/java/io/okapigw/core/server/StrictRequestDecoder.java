package io.okapigw.core.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.AsciiString;
import io.netty.util.ReferenceCountUtil;
import io.okapigw.core.http.HttpError;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.impl.VertxHttpRequestDecoder;
import io.vertx.core.net.HostAndPort;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * Vert.x's request decoder, made to read HTTP/1.1 as RFC 9112 has a server read it where Netty is
 * lenient, the one place that sees the request as the client framed it:
 *
 * <ul>
 *   <li>a request with both {@code Content-Length} and {@code Transfer-Encoding} is refused (400),
 *       not read as chunked with the length dropped (RFC 9112 §6.1: another parser may take the
 *       length, and the bytes after it for a request of its own);
 *   <li>a {@code Transfer-Encoding} other than {@code chunked} alone is refused (501 for an unknown
 *       coding, 400 for {@code chunked} twice or in HTTP/1.0), not read as a request without body
 *       followed by its body as the next request;
 *   <li>a request with more than one {@code Content-Length} line, in HTTP/1.0 too, is refused
 *       (400): Netty refuses them in HTTP/1.1 only and reads an HTTP/1.0 request by the first, the
 *       rest of its body as a request of its own (RFC 9112 §6.3);
 *   <li>an HTTP/1.1 request without {@code Host}, or any request with two, or one whose value is
 *       not a host and port, is refused (400, RFC 9112 §3.2);
 *   <li>a request target holding a control character, a space, a byte beyond ASCII or a {@code #}
 *       is refused (400, RFC 9112 §3.2 and RFC 3986): modules would read such bytes each their own
 *       way;
 *   <li>the version must be {@code HTTP/1.0} or {@code HTTP/1.1}: a later HTTP/1 minor version is
 *       read as HTTP/1.1 (RFC 9112 §2.3), another major version refused with 505, anything else
 *       ({@code http/1.1}, {@code HTTPS/1.1}) with 400; Netty would answer 501 with the client's
 *       version word echoed in the status line;
 *   <li>{@code CONNECT} is refused (501, RFC 9110 §9.1: a method the gateway does not implement):
 *       Vert.x would relay a module's 2xx and then read the connection as a tunnel;
 *   <li>an absolute-form target ({@code GET http://host/path}) becomes its origin form ({@code
 *       /path}) before anything routes on it (RFC 9112 §3.2.2);
 *   <li>a chunked body that breaks (a bad chunk size) is handed to {@code brokenBody} instead of
 *       closing the connection without an answer.
 * </ul>
 *
 * A refused head fails the request's decoder result with an {@link HttpError}: its connection
 * ({@link ClientConnection}) answers it and closes, and this decoder drops every byte after it
 * until the connection closes, so nothing after a refused head is ever read as a request.
 */
final class StrictRequestDecoder extends VertxHttpRequestDecoder {

  private static final String CHUNKED = "chunked";

  /** HTTP-version (RFC 9112 §2.3), case-sensitive. */
  private static final Pattern VERSION = Pattern.compile("HTTP/[0-9]\\.[0-9]");

  private final Consumer<Throwable> brokenBody;
  private int hosts;
  private int contentLengths;

  /**
   * @param options the server's options, as Vert.x's own decoder is made
   * @param brokenBody told when a chunked body cannot be read on
   */
  StrictRequestDecoder(HttpServerOptions options, Consumer<Throwable> brokenBody) {
    super(options);
    this.brokenBody = brokenBody;
  }

  @Override
  protected HttpMessage createMessage(String[] initialLine) {
    hosts = 0;
    contentLengths = 0;
    initialLine[2] = version(initialLine[2]);
    if (initialLine[0].equals("CONNECT")) {
      throw new HttpError(501, "CONNECT is not supported");
    }
    checkTarget(initialLine[1]);
    initialLine[1] = originForm(initialLine[1]);
    return super.createMessage(initialLine);
  }

  /**
   * @return {@code version} as read: HTTP/1.0 or HTTP/1.1 (a later HTTP/1 minor version read as
   *     HTTP/1.1)
   * @throws HttpError 505 for another major version, 400 for a word that is not a version
   */
  static String version(String version) {
    if (version.equals("HTTP/1.1") || version.equals("HTTP/1.0")) {
      return version;
    }
    if (!VERSION.matcher(version).matches()) {
      throw new HttpError(400, "not an HTTP version: " + printable(version));
    }
    if (version.charAt(5) != '1') {
      throw new HttpError(505, version + " is not supported; HTTP/1.1 is");
    }
    return "HTTP/1.1";
  }

  /**
   * @throws HttpError 400 for a control character, space, byte beyond ASCII (the line is read as
   *     ISO-8859-1) or {@code #} in the target
   */
  static void checkTarget(String target) {
    for (int i = 0; i < target.length(); i++) {
      char c = target.charAt(i);
      if (c <= ' ' || c >= 0x7f) {
        throw new HttpError(
            400,
            "the request target holds a control character, a space or a byte beyond ASCII at"
                + " index "
                + i
                + ": percent-encode it");
      }
      if (c == '#') {
        throw new HttpError(400, "the request target holds a fragment ('#'): leave it out");
      }
    }
  }

  private static String printable(String s) {
    String cut = s.length() > 20 ? s.substring(0, 20) + "..." : s;
    return cut.replaceAll("[^\\x21-\\x7e]", "?");
  }

  @Override
  protected AsciiString splitHeaderName(byte[] sb, int start, int length) {
    AsciiString name = super.splitHeaderName(sb, start, length);
    if (length == 4 && HttpHeaderNames.HOST.contentEqualsIgnoreCase(name)) {
      hosts++;
    } else if (length == 14 && HttpHeaderNames.CONTENT_LENGTH.contentEqualsIgnoreCase(name)) {
      contentLengths++;
    }
    return name;
  }

  /** Called once a request's headers are read, before its body: the framing is checked here. */
  @Override
  protected boolean isContentAlwaysEmpty(HttpMessage msg) {
    if (msg instanceof HttpRequest request) {
      checkHead(request);
    }
    return super.isContentAlwaysEmpty(msg);
  }

  private void checkHead(HttpRequest request) {
    checkHost(request.protocolVersion(), request.headers().get(HttpHeaderNames.HOST));
    if (contentLengths > 1) {
      throw new HttpError(
          400, "more than one Content-Length header is refused (RFC 9112 section 6.3)");
    }
    checkFraming(request.headers(), request.protocolVersion());
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf buffer, List<Object> out)
      throws Exception {
    int before = out.size();
    super.decode(ctx, buffer, out);
    for (int i = out.size() - 1; i >= before; i--) {
      Object decoded = out.get(i);
      if (decoded instanceof HttpRequest refused && refused.decoderResult().isFailure()) {
        // the connection closes after a refused head: an HTTP/1.0 keep-alive request must not be
        // answered "Connection: keep-alive" (Vert.x reads its keep-alive from these headers)
        refused.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
      } else if (decoded instanceof HttpContent content
          && !(decoded instanceof HttpRequest)
          && ((HttpObject) decoded).decoderResult().isFailure()) {
        out.remove(i);
        Throwable cause = content.decoderResult().cause();
        ReferenceCountUtil.release(content);
        brokenBody.accept(cause);
      }
    }
  }

  private void checkHost(HttpVersion version, String host) {
    if (hosts > 1) {
      throw new HttpError(400, "more than one Host header");
    }
    if (hosts == 0 && version.equals(HttpVersion.HTTP_1_1)) {
      throw new HttpError(400, "an HTTP/1.1 request needs a Host header");
    }
    // empty is allowed (RFC 9112 §3.2); anything else must read as Vert.x reads an authority
    if (host != null && !host.isEmpty() && HostAndPort.parseAuthority(host, -1) == null) {
      throw new HttpError(400, "the Host header is not a host and port: " + printable(host));
    }
  }

  private static void checkFraming(HttpHeaders headers, HttpVersion version) {
    if (!headers.contains(HttpHeaderNames.TRANSFER_ENCODING)) {
      return;
    }
    if (headers.contains(HttpHeaderNames.CONTENT_LENGTH)) {
      throw new HttpError(
          400,
          "a request with both Content-Length and Transfer-Encoding is"
              + " refused (RFC 9112 section 6.1)");
    }
    int chunked = 0;
    for (String field : headers.getAll(HttpHeaderNames.TRANSFER_ENCODING)) {
      for (String coding : field.split(",")) {
        String name = coding.trim();
        if (name.equalsIgnoreCase(CHUNKED)) {
          chunked++;
        } else if (!name.isEmpty()) {
          throw new HttpError(
              501, "transfer coding '" + name + "' is not supported; only" + " chunked is");
        }
      }
    }
    if (chunked != 1) {
      throw new HttpError(400, "Transfer-Encoding must name chunked once");
    }
    if (!version.equals(HttpVersion.HTTP_1_1)) {
      throw new HttpError(400, "Transfer-Encoding in an " + version.text() + " request");
    }
  }

  /**
   * @return {@code uri} in origin form: an absolute-form target ({@code http://host/path?q})
   *     without its scheme and authority ({@code /path?q}); any other target as it is
   */
  static String originForm(String uri) {
    if (uri.isEmpty() || uri.charAt(0) == '/') {
      return uri;
    }
    int scheme = uri.indexOf("://");
    if (scheme <= 0 || !isHttpScheme(uri.substring(0, scheme))) {
      return uri;
    }
    int authority = scheme + 3;
    for (int i = authority; i < uri.length(); i++) {
      char c = uri.charAt(i);
      if (c == '/') {
        return uri.substring(i);
      }
      if (c == '?') {
        return "/" + uri.substring(i);
      }
    }
    return "/";
  }

  private static boolean isHttpScheme(String scheme) {
    return scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https");
  }
}
