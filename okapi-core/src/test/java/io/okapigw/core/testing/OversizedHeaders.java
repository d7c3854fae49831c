package io.okapigw.core.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;

/**
 * Sends a request whose headers are too large and reads the status line. The server answers as soon
 * as the limit is passed and closes; if the client is still sending, the kernel may reset the
 * connection and drop the answer. That race is the client's, so a reset is retried (a few times);
 * any answer that arrives is returned as is.
 */
public final class OversizedHeaders {

  private static final int ATTEMPTS = 5;

  private OversizedHeaders() {}

  /**
   * @return the status code the server answered a GET with a {@code headerBytes} header
   */
  public static int status(int port, String path, String tenant, int headerBytes)
      throws IOException {
    String request =
        "GET "
            + path
            + " HTTP/1.1\r\nHost: localhost\r\nX-Okapi-Tenant: "
            + tenant
            + "\r\nX-Big: "
            + "b".repeat(headerBytes)
            + "\r\n\r\n";
    SocketException last = null;
    for (int i = 0; i < ATTEMPTS; i++) {
      try (Socket socket = new Socket("localhost", port)) {
        socket.setSoTimeout(10_000);
        OutputStream out = socket.getOutputStream();
        out.write(request.getBytes(StandardCharsets.US_ASCII));
        out.flush();
        String statusLine =
            new BufferedReader(
                    new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))
                .readLine();
        return Integer.parseInt(statusLine.split(" ")[1]);
      } catch (SocketException e) {
        last = e;
      }
    }
    throw last;
  }
}
