package io.okapigw.it.hostile;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * An HTTP/1.1 connection on a plain loopback socket, for what clients send and HTTP libraries
 * refuse to: any bytes, half a request, a reset. Every wait has a deadline: a read that would block
 * past it fails with {@link SocketTimeoutException}, never hangs the test.
 */
final class RawConnection implements AutoCloseable {

  /** How long a read waits unless told otherwise. */
  static final Duration DEFAULT_WAIT = HostileGateway.ANSWER_BOUND;

  private static final int MAX_HEAD = 256 * 1024;

  /** A status line's first word: HTTP/1.1, or whatever protocol/version a server put there. */
  private static final Pattern VERSION = Pattern.compile("[^ ]*/\\d\\.\\d");

  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;

  private RawConnection(Socket socket) throws IOException {
    this.socket = socket;
    this.in = new BufferedInputStream(socket.getInputStream());
    this.out = socket.getOutputStream();
  }

  /**
   * @return a connection to 127.0.0.1:{@code port}
   */
  static RawConnection open(int port) throws IOException {
    return open(port, "127.0.0.1");
  }

  /**
   * @param from the loopback address to connect from ({@code 127.0.0.2}: another client)
   * @return a connection from {@code from} to 127.0.0.1:{@code port}
   */
  static RawConnection open(int port, String from) throws IOException {
    Socket socket = new Socket();
    socket.setTcpNoDelay(true);
    socket.bind(new InetSocketAddress(from, 0));
    socket.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
    return new RawConnection(socket);
  }

  /** Sends {@code raw} as ISO-8859-1 bytes, as it is. */
  RawConnection send(String raw) throws IOException {
    return send(raw.getBytes(StandardCharsets.ISO_8859_1));
  }

  RawConnection send(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
    return this;
  }

  /** Sends {@code n} zero bytes (a body, or part of one). */
  RawConnection zeros(long n) throws IOException {
    byte[] chunk = new byte[(int) Math.min(n, 64 * 1024)];
    for (long left = n; left > 0; left -= chunk.length) {
      out.write(chunk, 0, (int) Math.min(left, chunk.length));
    }
    out.flush();
    return this;
  }

  /**
   * @return the next final response (1xx skipped) to a request other than HEAD
   */
  RawResponse response() throws IOException {
    return response("GET", DEFAULT_WAIT);
  }

  /**
   * Reads the next final response; interim (1xx) responses are skipped.
   *
   * @param method the request's method: a response to HEAD has no body
   * @param wait the longest the whole response may take
   * @throws SocketTimeoutException if it is not complete within {@code wait}
   * @throws IOException if the connection closes before a complete response
   */
  RawResponse response(String method, Duration wait) throws IOException {
    long deadline = System.nanoTime() + wait.toNanos();
    while (true) {
      RawResponse response = readOne(method, deadline);
      if (response.status() >= 200) {
        return response;
      }
    }
  }

  private RawResponse readOne(String method, long deadline) throws IOException {
    String head = readHead(deadline);
    String[] lines = head.split("\r\n");
    String[] statusLine = lines[0].split(" ", 3);
    if (statusLine.length < 2
        || !VERSION.matcher(statusLine[0]).matches()
        || statusLine[1].length() != 3) {
      throw new MalformedResponse("not a status line: " + Escape.text(lines[0]));
    }
    int status = number(statusLine[1], 10, lines[0]);
    Map<String, List<String>> headers = new LinkedHashMap<>();
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      if (colon <= 0) {
        throw new MalformedResponse("malformed response header: " + Escape.text(lines[i]));
      }
      headers
          .computeIfAbsent(
              lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), k -> new ArrayList<>())
          .add(lines[i].substring(colon + 1).trim());
    }
    RawResponse bodiless = new RawResponse(statusLine[0], status, headers, new byte[0]);
    if (status < 200 || status == 204 || status == 304 || method.equals("HEAD")) {
      return bodiless;
    }
    byte[] body;
    if ("chunked".equalsIgnoreCase(bodiless.header("transfer-encoding"))) {
      body = readChunked(deadline);
    } else if (bodiless.header("content-length") != null) {
      body = readExactly(number(bodiless.header("content-length"), 10, head), deadline);
    } else {
      body = readUntilClosed(deadline);
    }
    return new RawResponse(statusLine[0], status, headers, body);
  }

  private static int number(String text, int radix, String context) throws MalformedResponse {
    try {
      return Integer.parseInt(text, radix);
    } catch (NumberFormatException e) {
      throw new MalformedResponse("not a number: " + Escape.text(context));
    }
  }

  private String readHead(long deadline) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int state = 0; // how much of CR LF CR LF has been seen
    while (state < 4) {
      int b;
      try {
        b = read(deadline);
      } catch (SocketTimeoutException e) {
        throw e;
      } catch (IOException reset) {
        b = -1; // a reset, as a close
      }
      if (b < 0) {
        throw new IOException(
            head.size() == 0
                ? "connection closed, no response"
                : "connection closed within a response head: " + Escape.bytes(head.toByteArray()));
      }
      head.write(b);
      if (head.size() > MAX_HEAD) {
        throw new MalformedResponse("response head over " + MAX_HEAD + " bytes");
      }
      state = b == (state % 2 == 0 ? '\r' : '\n') ? state + 1 : b == '\r' ? 1 : 0;
    }
    byte[] bytes = head.toByteArray();
    return new String(bytes, 0, bytes.length - 4, StandardCharsets.ISO_8859_1);
  }

  private byte[] readChunked(long deadline) throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    while (true) {
      String sizeLine = readLine(deadline);
      int semicolon = sizeLine.indexOf(';');
      int size =
          number(
              (semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).trim(), 16, sizeLine);
      if (size == 0) {
        while (!readLine(deadline).isEmpty()) {
          // trailer fields
        }
        return body.toByteArray();
      }
      body.write(readExactly(size, deadline));
      readLine(deadline);
    }
  }

  private String readLine(long deadline) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    for (int b; (b = read(deadline)) != '\n'; ) {
      if (b < 0) {
        throw new IOException("connection closed within a chunked body");
      }
      if (b != '\r') {
        line.write(b);
      }
    }
    return line.toString(StandardCharsets.ISO_8859_1);
  }

  private byte[] readExactly(int n, long deadline) throws IOException {
    byte[] body = new byte[n];
    for (int off = 0; off < n; ) {
      setTimeout(deadline);
      int read = in.read(body, off, n - off);
      if (read < 0) {
        throw new IOException(
            "connection closed with " + (n - off) + " of " + n + " body bytes unread");
      }
      off += read;
    }
    return body;
  }

  private byte[] readUntilClosed(long deadline) throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    try {
      setTimeout(deadline);
      for (int read; (read = in.read(buffer)) >= 0; setTimeout(deadline)) {
        body.write(buffer, 0, read);
      }
    } catch (SocketTimeoutException e) {
      throw e;
    } catch (IOException reset) {
      // a reset ends the body as a close does
    }
    return body.toByteArray();
  }

  private int read(long deadline) throws IOException {
    setTimeout(deadline);
    return in.read();
  }

  private void setTimeout(long deadline) throws IOException {
    long left = (deadline - System.nanoTime()) / 1_000_000;
    if (left <= 0) {
      throw new SocketTimeoutException("deadline passed");
    }
    socket.setSoTimeout((int) Math.min(left, Integer.MAX_VALUE));
  }

  /**
   * Waits for the first byte of an answer, or the peer's close.
   *
   * @return whether a byte came (false: the connection closed or was reset)
   * @throws SocketTimeoutException if neither happened within {@code wait}
   */
  boolean awaitByte(Duration wait) throws IOException {
    try {
      return read(System.nanoTime() + wait.toNanos()) >= 0;
    } catch (SocketTimeoutException e) {
      throw e;
    } catch (IOException reset) {
      return false;
    }
  }

  /**
   * Reads until the peer closes or resets the connection, at most {@code wait}.
   *
   * @return what it sent until then (ISO-8859-1)
   * @throws SocketTimeoutException if it neither closed nor reset within {@code wait}
   */
  String readUntilClosed(Duration wait) throws IOException {
    return new String(
        readUntilClosed(System.nanoTime() + wait.toNanos()), StandardCharsets.ISO_8859_1);
  }

  /**
   * Waits for the peer to close.
   *
   * @return how long until it closed (or reset) the connection; fails if it sent any byte or kept
   *     it open longer than {@code wait}
   */
  Duration closedWithin(Duration wait) throws IOException {
    long start = System.nanoTime();
    String sent = readUntilClosed(wait);
    if (!sent.isEmpty()) {
      throw new AssertionError("expected a close without an answer, got: " + Escape.text(sent));
    }
    return Duration.ofNanos(System.nanoTime() - start);
  }

  /**
   * @return how many bytes the peer sent that are not read yet (never blocks)
   */
  int available() throws IOException {
    return in.available();
  }

  /** Shuts down the sending side (FIN) and keeps reading. */
  void shutdownOutput() throws IOException {
    socket.shutdownOutput();
  }

  /** Gives up with a TCP reset (SO_LINGER 0), as a killed client does. */
  void reset() {
    try {
      socket.setSoLinger(true, 0);
      socket.close();
    } catch (IOException e) {
      // closed already
    }
  }

  /** Bytes that are not an HTTP/1.x response where one is due. */
  static final class MalformedResponse extends IOException {
    private static final long serialVersionUID = 1L;

    MalformedResponse(String message) {
      super(message);
    }
  }

  /** Closes with an orderly close (FIN). */
  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException e) {
      // closed already
    }
  }
}
