package io.okapigw.core.proxy;

import static io.okapigw.core.testing.GatewayFixture.handler;
import static io.okapigw.core.testing.GatewayFixture.module;

import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.RawClient;
import io.okapigw.core.testing.RawModule;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A gateway for framing tests, started once per test class: tenant {@code diku}, a {@link
 * RawModule} behind {@code /s*} (a {@code request-response} handler, the body streamed through an
 * {@link Exchange}) and {@code /b*} (a {@code request-response-1.0} handler, the body sent whole by
 * {@link BufferedHandler}); and a client on a plain socket that reads an answer by its own framing.
 */
final class FramingGateway implements AutoCloseable {

  /** The module client's path for a request: its body streamed, or read and sent whole. */
  enum Path {
    STREAMED("/s"),
    BUFFERED("/b");

    final String path;

    Path(String path) {
      this.path = path;
    }
  }

  static final String TENANT = "X-Okapi-Tenant: diku\r\n";

  final GatewayFixture gw;
  final RawModule module = RawModule.start();

  private FramingGateway() {
    gw = new GatewayFixture(GatewayOptions.defaults(0));
    gw.createTenant("diku");
    gw.install("diku", module("mod-s-1.0.0", "s", handler("*", "/s*")), module.url());
    gw.install(
        "diku",
        module("mod-b-1.0.0", "b", handler("*", "/b*").put("type", "request-response-1.0")),
        module.url());
  }

  /** One gateway, started when first asked for. */
  static final class Shared implements AutoCloseable {
    private FramingGateway started;

    FramingGateway get() {
      if (started == null) {
        started = new FramingGateway();
      }
      started.module.drain();
      started.module.answer(RawModule.OK);
      return started;
    }

    @Override
    public void close() {
      if (started != null) {
        started.close();
        started = null;
      }
    }
  }

  Client connect() throws IOException {
    return new Client(new Socket("localhost", gw.gateway().port()));
  }

  @Override
  public void close() {
    gw.close();
    module.close();
  }

  /**
   * An answer as the client read it.
   *
   * @param framing {@code "length N"}, {@code "chunked"} or {@code "close"}
   * @param complete whether its body ended as its framing said
   */
  record Answer(
      int status, Map<String, String> headers, String framing, String body, boolean complete) {
    @Override
    public String toString() {
      return status + " " + headers + " " + framing + (complete ? "" : " (cut)") + " " + body;
    }
  }

  /** A client on a plain socket; reads bounded by {@link RawClient#TIMEOUT_MILLIS}. */
  static final class Client implements AutoCloseable {
    private final Socket socket;
    private final InputStream in;

    Client(Socket socket) throws IOException {
      this.socket = socket;
      socket.setSoTimeout(RawClient.TIMEOUT_MILLIS);
      this.in = socket.getInputStream();
    }

    Client send(String raw) throws IOException {
      socket.getOutputStream().write(raw.getBytes(StandardCharsets.ISO_8859_1));
      socket.getOutputStream().flush();
      return this;
    }

    /**
     * @return the next answer; null if the connection ended (or was reset) before a head
     */
    Answer answer() throws IOException {
      String head;
      try {
        head = line(true);
      } catch (SocketTimeoutException e) {
        throw new AssertionError("no answer within " + RawClient.TIMEOUT_MILLIS + " ms", e);
      } catch (IOException e) {
        return null;
      }
      if (head == null) {
        return null;
      }
      Map<String, String> headers = new TreeMap<>();
      for (String line; !(line = line(false)).isEmpty(); ) {
        int colon = line.indexOf(':');
        headers.merge(
            line.substring(0, colon).trim().toLowerCase(Locale.ROOT),
            line.substring(colon + 1).trim(),
            (a, b) -> a + "|" + b);
      }
      int status = Integer.parseInt(head.split(" ")[1]);
      return body(status, headers);
    }

    private Answer body(int status, Map<String, String> headers) {
      StringBuilder body = new StringBuilder();
      String te = headers.get("transfer-encoding");
      String cl = headers.get("content-length");
      try {
        if (te != null) {
          for (int n; (n = Integer.parseInt(line(false), 16)) > 0; line(false)) {
            body.append(bytes(n));
          }
          line(false);
          return new Answer(status, headers, "chunked", body.toString(), true);
        }
        if (cl != null) {
          body.append(bytes(Integer.parseInt(cl)));
          return new Answer(status, headers, "length " + cl, body.toString(), true);
        }
        for (int b; (b = in.read()) >= 0; ) {
          body.append((char) b);
        }
        return new Answer(status, headers, "close", body.toString(), true);
      } catch (IOException | RuntimeException e) {
        String framing = te != null ? "chunked" : cl != null ? "length " + cl : "close";
        return new Answer(status, headers, framing, body.toString(), false);
      }
    }

    /**
     * @return every byte until the gateway closes the connection (or resets it)
     */
    String rest() {
      ByteArrayOutputStream rest = new ByteArrayOutputStream();
      try {
        for (int b; (b = in.read()) >= 0; ) {
          rest.write(b);
        }
      } catch (SocketTimeoutException e) {
        throw new AssertionError("the connection stayed open: " + rest);
      } catch (IOException e) {
        // reset
      }
      return rest.toString(StandardCharsets.ISO_8859_1);
    }

    private String bytes(int n) throws IOException {
      StringBuilder s = new StringBuilder();
      for (int i = 0; i < n; i++) {
        int b = in.read();
        if (b < 0) {
          throw new IOException("cut after " + i + " of " + n + " bytes: " + s);
        }
        s.append((char) b);
      }
      return s.toString();
    }

    private String line(boolean first) throws IOException {
      StringBuilder line = new StringBuilder();
      for (int b; (b = in.read()) != '\n'; ) {
        if (b < 0) {
          if (first && line.length() == 0) {
            return null;
          }
          throw new IOException("ended within a line: " + line);
        }
        line.append((char) b);
      }
      return line.toString().endsWith("\r")
          ? line.substring(0, line.length() - 1)
          : line.toString();
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }
}
