package io.okapigw.it.hostile;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A module that dies midway, on plain sockets so that how it dies is exactly what it says (no HTTP
 * server's graceful close in between). Every connection, thread of its own:
 *
 * <ul>
 *   <li>{@code /die/upload...}: reads the head and 1 KiB of the body, then closes (FIN), or resets
 *       with {@code ?reset}, unanswered;
 *   <li>{@code /die/download...}: answers 200 with a Content-Length of a megabyte (a chunked body
 *       with {@code ?chunked}), sends 10,000 bytes of it, then closes, or resets with {@code
 *       ?reset};
 *   <li>{@code /die/upgrade}: answers {@code 101 Switching Protocols} (to a request that asked for
 *       no upgrade), then bytes that are not HTTP, and keeps the connection until the peer closes;
 *   <li>{@code /die/head}: answers 200 with {@code Content-Length: 5} and then 5 bytes, even to a
 *       {@code HEAD} (where no body may follow), and keeps the connection for more requests;
 *   <li>{@code /die/short}: answers 200 with {@code Content-Length: 2} and then 3 bytes ({@code
 *       okk}: the length one byte short), and keeps the connection for more requests;
 *   <li>{@code /die/chunked-extra}: answers 200 with a chunked body that ends, then a byte more,
 *       and keeps the connection for more requests;
 *   <li>{@code /die/ok}: answers 200 {@code ok} and keeps the connection for more requests.
 * </ul>
 */
final class DyingModule implements AutoCloseable {

  private final ServerSocket server;
  private final ExecutorService threads =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "dying-module");
            t.setDaemon(true);
            return t;
          });

  DyingModule() throws IOException {
    server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    threads.submit(this::accept);
  }

  String url() {
    return "http://127.0.0.1:" + server.getLocalPort();
  }

  private Void accept() {
    while (!server.isClosed()) {
      try {
        Socket s = server.accept();
        threads.submit(() -> serve(s));
      } catch (IOException closed) {
        return null;
      }
    }
    return null;
  }

  private Void serve(Socket s) throws IOException {
    try (s) {
      InputStream in = s.getInputStream();
      OutputStream out = s.getOutputStream();
      String head = readHead(in);
      while (answerAndKeep(head, in, out)) {
        head = readHead(in);
      }
      die(s, in, head.split(" ", 3)[1]);
    }
    return null;
  }

  /**
   * Answers the misbehaving paths that keep their connection.
   *
   * @return whether the connection is kept for another request
   */
  private static boolean answerAndKeep(String head, InputStream in, OutputStream out)
      throws IOException {
    String target = head.split(" ", 3)[1];
    if (target.startsWith("/die/upgrade")) {
      out.write(
          ("HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: evil\r\n\r\n"
                  + "not HTTP from here on\r\n\r\n")
              .getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      in.transferTo(OutputStream.nullOutputStream());
      throw new IOException("closed by the peer");
    }
    String answer;
    if (target.startsWith("/die/head")) {
      answer = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello";
    } else if (target.startsWith("/die/short")) {
      answer = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokk";
    } else if (target.startsWith("/die/chunked-extra")) {
      answer = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\nx";
    } else if (target.startsWith("/die/ok")) {
      answer = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
    } else {
      return false;
    }
    out.write(answer.getBytes(StandardCharsets.ISO_8859_1));
    out.flush();
    return true;
  }

  /** Dies as {@code /die/upload...} and {@code /die/download...} say. */
  private static void die(Socket s, InputStream in, String target) throws IOException {
    if (target.startsWith("/die/upload")) {
      in.readNBytes(1024);
    } else {
      OutputStream out = s.getOutputStream();
      out.write(
          ("HTTP/1.1 200 OK\r\n"
                  + (target.contains("chunked")
                      ? "Transfer-Encoding: chunked\r\n\r\n2710\r\n"
                      : "Content-Length: 1000000\r\n\r\n"))
              .getBytes(StandardCharsets.ISO_8859_1));
      out.write(new byte[10_000]);
      out.flush();
    }
    if (target.contains("reset")) {
      s.setSoLinger(true, 0);
    }
  }

  private static String readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int state = 0;
    for (int b; state < 4 && (b = in.read()) >= 0; ) {
      head.write(b);
      state = b == (state % 2 == 0 ? '\r' : '\n') ? state + 1 : b == '\r' ? 1 : 0;
    }
    if (state < 4) {
      throw new IOException("closed within the head");
    }
    return head.toString(StandardCharsets.ISO_8859_1);
  }

  @Override
  public void close() {
    try {
      server.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    threads.shutdownNow();
  }
}
