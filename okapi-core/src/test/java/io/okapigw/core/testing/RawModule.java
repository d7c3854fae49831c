package io.okapigw.core.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A module on a plain socket that records every byte each connection brings, for what the gateway
 * really writes to a module: it reads requests as a strict server would (one {@code
 * Content-Length}, or {@code Transfer-Encoding: chunked} with no chunk extensions, or no body),
 * answers the first request of a connection with the {@linkplain #answer answer set}, written as it
 * is, then half-closes and reads on until the gateway closes, so that a request smuggled after the
 * first is read and recorded too. Its threads block; nothing runs on an event loop.
 */
public final class RawModule implements AutoCloseable {

  /** An answer of two bytes that closes the connection. */
  public static final String OK =
      "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok";

  private final ServerSocket server;
  private final BlockingQueue<Connection> ended = new LinkedBlockingQueue<>();
  private volatile String answer = OK;

  private RawModule() throws IOException {
    server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread accept = new Thread(this::accept, "raw-module-accept");
    accept.setDaemon(true);
    accept.start();
  }

  /** Starts a module answering {@link #OK}. */
  public static RawModule start() {
    try {
      return new RawModule();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public String url() {
    return "http://127.0.0.1:" + server.getLocalPort();
  }

  /** The bytes the module answers the first request of each connection with, from now on. */
  public void answer(String raw) {
    answer = raw;
  }

  /**
   * @return the next connection the gateway closed; fails the test if none within a minute
   */
  public Connection next() {
    try {
      Connection c = ended.poll(1, TimeUnit.MINUTES);
      if (c == null) {
        throw new AssertionError("no module connection ended within a minute");
      }
      return c;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /**
   * @return the connections ended and not yet taken, then forgotten
   */
  public List<Connection> drain() {
    List<Connection> all = new ArrayList<>();
    ended.drainTo(all);
    return all;
  }

  @Override
  public void close() {
    try {
      server.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket socket = server.accept();
        Thread serve = new Thread(() -> serve(socket), "raw-module-connection");
        serve.setDaemon(true);
        serve.start();
      } catch (IOException e) {
        return;
      }
    }
  }

  private void serve(Socket socket) {
    Reader reader = null;
    try (socket) {
      socket.setSoTimeout(RawClient.TIMEOUT_MILLIS);
      reader = new Reader(socket.getInputStream());
      for (Request r; (r = reader.request()) != null; ) {
        if (reader.requests.size() == 1) {
          socket.getOutputStream().write(answer.getBytes(StandardCharsets.ISO_8859_1));
          socket.getOutputStream().flush();
          socket.shutdownOutput();
        }
      }
    } catch (IOException | RuntimeException e) {
      if (reader != null) {
        reader.problem = e.toString();
        reader.drainToEnd();
      }
    }
    if (reader != null) {
      ended.add(new Connection(reader.all.toByteArray(), reader.requests, reader.problem));
    }
  }

  /**
   * One request as the module read it.
   *
   * @param head its request line and header lines, as sent (ISO-8859-1, without the blank line)
   * @param framing {@code "length N"}, {@code "chunked"} or {@code "none"}
   * @param body its body, decoded
   */
  public record Request(String head, String framing, String body) {
    public String requestLine() {
      return head.substring(0, head.indexOf("\r\n") < 0 ? head.length() : head.indexOf("\r\n"));
    }

    /**
     * @return the values of the header lines named {@code name}, ignoring case
     */
    public List<String> headers(String name) {
      List<String> values = new ArrayList<>();
      for (String line : head.split("\r\n")) {
        int colon = line.indexOf(':');
        if (colon > 0 && line.substring(0, colon).equalsIgnoreCase(name)) {
          values.add(line.substring(colon + 1).trim());
        }
      }
      return values;
    }
  }

  /**
   * One connection, ended.
   *
   * @param bytes every byte the gateway sent on it
   * @param requests the requests read from them, in order
   * @param problem what the module could not read as HTTP/1.1, or null
   */
  public record Connection(byte[] bytes, List<Request> requests, String problem) {
    public String text() {
      return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    @Override
    public String toString() {
      return (problem == null ? "" : "[" + problem + "] ") + text();
    }
  }

  /** Reads requests strictly, keeping a copy of every byte. */
  private static final class Reader {
    private final InputStream in;
    private final ByteArrayOutputStream all = new ByteArrayOutputStream();
    private final List<Request> requests = new ArrayList<>();
    private String problem;

    Reader(InputStream in) {
      this.in = in;
    }

    /**
     * @return the next request; null at the connection's end between requests
     */
    Request request() throws IOException {
      String head = line(true);
      if (head == null) {
        return null;
      }
      StringBuilder lines = new StringBuilder(head);
      for (String line; !(line = line(false)).isEmpty(); ) {
        lines.append("\r\n").append(line);
      }
      Request request = body(lines.toString());
      requests.add(request);
      return request;
    }

    private Request body(String head) throws IOException {
      Request framing = new Request(head, "none", "");
      List<String> lengths = framing.headers("Content-Length");
      List<String> codings = framing.headers("Transfer-Encoding");
      if (lengths.size() + codings.size() > 1) {
        throw new IOException("more than one framing header");
      }
      if (!codings.isEmpty()) {
        if (!codings.get(0).toLowerCase(Locale.ROOT).equals("chunked")) {
          throw new IOException("Transfer-Encoding " + codings.get(0));
        }
        return new Request(head, "chunked", chunked());
      }
      if (!lengths.isEmpty()) {
        if (!lengths.get(0).matches("\\d{1,9}")) {
          throw new IOException("Content-Length " + lengths.get(0));
        }
        int n = Integer.parseInt(lengths.get(0));
        return new Request(head, "length " + n, bytes(n));
      }
      return framing;
    }

    private String chunked() throws IOException {
      StringBuilder body = new StringBuilder();
      while (true) {
        String size = line(false);
        if (!size.matches("[0-9a-fA-F]{1,7}")) {
          throw new IOException("chunk size line '" + size + "'");
        }
        int n = Integer.parseInt(size, 16);
        if (n == 0) {
          if (!line(false).isEmpty()) {
            throw new IOException("a trailer after the last chunk");
          }
          return body.toString();
        }
        body.append(bytes(n));
        if (!line(false).isEmpty()) {
          throw new IOException("no CRLF after a chunk's data");
        }
      }
    }

    private String bytes(int n) throws IOException {
      byte[] data = new byte[n];
      for (int i = 0; i < n; i++) {
        data[i] = (byte) read();
      }
      return new String(data, StandardCharsets.ISO_8859_1);
    }

    /**
     * @param first whether the connection may end before it (null then)
     * @return a line without its CRLF
     */
    private String line(boolean first) throws IOException {
      StringBuilder line = new StringBuilder();
      while (true) {
        int b = in.read();
        if (b < 0) {
          if (first && line.length() == 0) {
            return null;
          }
          throw new IOException("the connection ended within a line: " + line);
        }
        all.write(b);
        if (b == '\n') {
          if (line.length() == 0 || line.charAt(line.length() - 1) != '\r') {
            throw new IOException("a bare LF");
          }
          return line.substring(0, line.length() - 1);
        }
        line.append((char) b);
      }
    }

    private int read() throws IOException {
      int b = in.read();
      if (b < 0) {
        throw new IOException("the connection ended within a body");
      }
      all.write(b);
      return b;
    }

    void drainToEnd() {
      try {
        for (int b; (b = in.read()) >= 0; ) {
          all.write(b);
        }
      } catch (IOException e) {
        // ended
      }
    }
  }
}
