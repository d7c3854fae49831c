package io.okapigw.core.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * An HTTP/1.1 client on a plain socket, for what real clients do and HTTP libraries hide: send a
 * head promising more body than follows, give up midway with a reset or a close. Every read is
 * bounded by {@link #TIMEOUT_MILLIS}, a hang guard far from any answer's latency on a busy machine.
 */
public final class RawClient implements AutoCloseable {

  public static final int TIMEOUT_MILLIS = 30_000;

  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;

  private RawClient(Socket socket) throws IOException {
    this.socket = socket;
    socket.setSoTimeout(TIMEOUT_MILLIS);
    this.in = socket.getInputStream();
    this.out = socket.getOutputStream();
  }

  /**
   * @return a client connected to localhost:{@code port}
   */
  public static RawClient connect(int port) {
    try {
      return new RawClient(new Socket("localhost", port));
    } catch (IOException e) {
      throw new AssertionError("cannot connect to port " + port, e);
    }
  }

  /**
   * @param local the loopback address the connection comes from, e.g. {@code 127.0.0.2}: another
   *     host, as the gateway sees it
   * @return a client connected from {@code local} to 127.0.0.1:{@code port}
   */
  public static RawClient connectFrom(String local, int port) {
    try {
      return new RawClient(
          new Socket(
              InetAddress.getByAddress(new byte[] {127, 0, 0, 1}),
              port,
              InetAddress.getByName(local),
              0));
    } catch (IOException e) {
      throw new AssertionError("cannot connect from " + local + " to port " + port, e);
    }
  }

  /**
   * Sends a request head for tenant {@code diku}.
   *
   * @param contentLength the Content-Length to declare, or -1 for none
   */
  public RawClient head(String method, String path, long contentLength) throws IOException {
    return send(method, path, contentLength >= 0 ? "Content-Length: " + contentLength : null);
  }

  /** Sends a request head for tenant {@code diku}, no body, with a header ({@code "Name: v"}). */
  public RawClient headWith(String method, String path, String header) throws IOException {
    return send(method, path, header);
  }

  private RawClient send(String method, String path, String header) throws IOException {
    String head =
        method
            + " "
            + path
            + " HTTP/1.1\r\nHost: localhost\r\nX-Okapi-Tenant: diku\r\n"
            + (header != null ? header + "\r\n" : "")
            + "\r\n";
    out.write(head.getBytes(StandardCharsets.US_ASCII));
    out.flush();
    return this;
  }

  /** Sends {@code raw} as it is (ISO-8859-1): a request line, headers and body of one's own. */
  public RawClient send(String raw) throws IOException {
    out.write(raw.getBytes(StandardCharsets.ISO_8859_1));
    out.flush();
    return this;
  }

  /** Sends {@code n} bytes of body. */
  public RawClient body(int n) throws IOException {
    byte[] chunk = new byte[Math.min(n, 64 * 1024)];
    for (int left = n; left > 0; left -= chunk.length) {
      out.write(chunk, 0, Math.min(left, chunk.length));
    }
    out.flush();
    return this;
  }

  /**
   * @return the response head; fails if none arrives in time
   */
  public Head readHead() throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    while (!endsWithBlankLine(head)) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("connection closed before a complete response head: " + head);
      }
      head.write(b);
    }
    String[] lines = head.toString(StandardCharsets.US_ASCII).split("\r\n");
    Map<String, String> headers = new TreeMap<>();
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      headers.put(
          lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
          lines[i].substring(colon + 1).trim());
    }
    return new Head(Integer.parseInt(lines[0].split(" ")[1]), headers);
  }

  /**
   * @return the status of the response head, or -1 if none came in time or the peer closed
   */
  public int status() {
    try {
      return readHead().status();
    } catch (IOException e) {
      return -1;
    }
  }

  /**
   * @return the next response, its body read by its Content-Length; fails if none comes
   */
  public Response response() throws IOException {
    Head head = readHead();
    long length = head.contentLength();
    return new Response(head, length > 0 ? readText((int) length) : "");
  }

  /**
   * Waits up to {@code millis} for a byte or the peer's close.
   *
   * @return whether the connection stayed open and silent that long
   */
  public boolean silentFor(int millis) throws IOException {
    socket.setSoTimeout(millis);
    try {
      int b = in.read();
      if (b >= 0) {
        throw new AssertionError("unexpected byte " + b + " from the peer");
      }
      return false;
    } catch (SocketTimeoutException e) {
      return true;
    } catch (IOException e) {
      return false;
    } finally {
      socket.setSoTimeout(TIMEOUT_MILLIS);
    }
  }

  /** Reads exactly {@code n} body bytes; fails if the peer closes or is silent first. */
  public RawClient readBody(int n) throws IOException {
    readText(n);
    return this;
  }

  /**
   * @return exactly {@code n} body bytes as text; fails if the peer closes or is silent first
   */
  public String readText(int n) throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    for (int left = n; left > 0; ) {
      int read = in.read(buffer, 0, Math.min(left, buffer.length));
      if (read < 0) {
        throw new IOException("connection closed with " + left + " of " + n + " bytes unread");
      }
      body.write(buffer, 0, read);
      left -= read;
    }
    return body.toString(StandardCharsets.UTF_8);
  }

  /**
   * Reads until the peer closes or resets the connection.
   *
   * @return the bytes read until then
   * @throws AssertionError if the peer neither closes nor resets within the timeout
   */
  public long readUntilClosed() {
    byte[] buffer = new byte[8192];
    long total = 0;
    try {
      for (int read; (read = in.read(buffer)) >= 0; ) {
        total += read;
      }
    } catch (SocketTimeoutException e) {
      throw new AssertionError(
          "connection still open after " + TIMEOUT_MILLIS + " ms (" + total + " bytes read)");
    } catch (IOException e) {
      // reset: closed as well
    }
    return total;
  }

  /**
   * Reads until the peer closes or resets the connection.
   *
   * @return the text read until then
   * @throws AssertionError if the peer neither closes nor resets within the timeout
   */
  public String readTextUntilClosed() {
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    try {
      for (int read; (read = in.read(buffer)) >= 0; ) {
        text.write(buffer, 0, read);
      }
    } catch (SocketTimeoutException e) {
      throw new AssertionError(
          "connection still open after "
              + TIMEOUT_MILLIS
              + " ms, having"
              + " sent: "
              + text.toString(StandardCharsets.ISO_8859_1));
    } catch (IOException e) {
      // reset: closed as well
    }
    return text.toString(StandardCharsets.ISO_8859_1);
  }

  /** Gives up with a TCP reset (SO_LINGER 0), as a killed client does. */
  public void reset() {
    try {
      socket.setSoLinger(true, 0);
      socket.close();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  /** Gives up with an orderly close (FIN). */
  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static boolean endsWithBlankLine(ByteArrayOutputStream head) {
    byte[] b = head.toByteArray();
    int n = b.length;
    return n >= 4 && b[n - 4] == '\r' && b[n - 3] == '\n' && b[n - 2] == '\r' && b[n - 1] == '\n';
  }

  /** A response: its head and its body as text. */
  public record Response(Head head, String body) {
    public int status() {
      return head.status();
    }

    @Override
    public String toString() {
      return head.status() + " " + head.headers() + " " + body;
    }
  }

  /** A response head: status and headers (names lower case). */
  public record Head(int status, Map<String, String> headers) {
    public long contentLength() {
      return Long.parseLong(headers.getOrDefault("content-length", "-1"));
    }
  }
}
