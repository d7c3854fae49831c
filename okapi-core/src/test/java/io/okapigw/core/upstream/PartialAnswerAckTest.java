package io.okapigw.core.upstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.okapigw.core.http.Framing;
import io.okapigw.core.routing.Instances;
import io.okapigw.core.testing.DelayedAcks;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 44, item 1: a module that writes its answer's head in one write and its body in another,
 * without {@code TCP_NODELAY} (Python's {@code http.server}), holds the body until its head is
 * acknowledged (Nagle). On a kept-alive module connection the gateway's kernel delayed that ACK
 * (delayed-ACK mode: up to 40 ms, hoping for data to carry it), so every call to such a module
 * waited ~40 ms (p50 48-58 ms against 2-3 ms for one write, docs/benchmarks.md). Now a read that
 * leaves an answer incomplete asks for the ACK at once ({@link io.okapigw.core.http.QuickAck}), and
 * the connection is out of delayed-ACK mode by the time the module writes its second piece. Not
 * timed: the module writes its body only when the test says so, after the gateway's read of the
 * head is over, and the test reads the socket's state then.
 */
class PartialAnswerAckTest {

  private Vertx vertx;
  private PiecesModule module;
  private ModuleClient client;

  @BeforeEach
  void start() throws IOException {
    assumeTrue(DelayedAcks.readable(), "TCP_QUICKACK cannot be read on this system (not Linux)");
    vertx = Vertx.vertx();
    module = new PiecesModule();
    // one connection, reused at once: the kept-alive connection a busy module gets
    client =
        ModuleClient.create(
            vertx, UpstreamOptions.defaults().withReuseQuiet(Duration.ZERO), CallObserver.NONE);
  }

  @AfterEach
  void stop() throws IOException {
    if (client != null) {
      client.close().await();
      vertx.close().await();
      module.close();
    }
  }

  @Test
  void headThenBody_onAKeptAliveConnection_notLeftInDelayedAckMode() throws Exception {
    // a few calls answered at once: the kernel takes the connection for an interactive one
    for (int i = 0; i < 3; i++) {
      assertThat(whole("/whole")).isEqualTo("whole");
    }
    Instances instances = Instances.of("mod-p-1.0.0", List.of(module.url()));
    Promise<ModuleCall> opened = Promise.promise();
    Promise<Boolean> quick = Promise.promise();
    vertx.runOnContext(
        v ->
            client
                .open(CallKind.SYSTEM, instances, HttpMethod.GET, "/pieces", 5000)
                .onSuccess(
                    call -> {
                      call.sendHead(Framing.NONE);
                      call.end();
                      call.answered()
                          .compose(head -> DelayedAcks.quickAfterThisRead(call.channel()))
                          .onComplete(quick);
                      opened.complete(call);
                    })
                .onFailure(opened::fail));
    ModuleCall call = opened.future().await(1, TimeUnit.MINUTES);
    boolean acksAtOnce = quick.future().await(1, TimeUnit.MINUTES);
    module.go.add("body");
    Buffer body = onContext(() -> call.read(100));

    assertThat(body.toString()).isEqualTo("pieces");
    assertThat(module.connections).as("module connections").hasValue(1);
    assertThat(acksAtOnce)
        .as("the gateway's side acknowledges at once after reading the head alone")
        .isTrue();
  }

  private String whole(String path) throws Exception {
    Instances instances = Instances.of("mod-p-1.0.0", List.of(module.url()));
    return onContext(
            () ->
                client
                    .open(CallKind.SYSTEM, instances, HttpMethod.GET, path, 5000)
                    .compose(call -> call.exchange(null, status -> 100)))
        .body()
        .toString();
  }

  private <T> T onContext(java.util.function.Supplier<Future<T>> work) throws Exception {
    Promise<T> done = Promise.promise();
    vertx.runOnContext(v -> work.get().onComplete(done));
    return done.future().await(1, TimeUnit.MINUTES);
  }

  /**
   * A module on a plain socket, Nagle on (Java's default), keeping its connections: answers {@code
   * /whole} in one write; {@code /pieces} with its head in one write and its body in a second, once
   * the test puts something in {@link #go}.
   */
  private static final class PiecesModule implements AutoCloseable {
    final AtomicInteger connections = new AtomicInteger();
    final BlockingQueue<String> go = new LinkedBlockingQueue<>();
    private final ServerSocket server;

    PiecesModule() throws IOException {
      server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      Thread accept = new Thread(this::accept, "pieces-module");
      accept.setDaemon(true);
      accept.start();
    }

    String url() {
      return "http://127.0.0.1:" + server.getLocalPort();
    }

    private void accept() {
      while (!server.isClosed()) {
        try {
          Socket socket = server.accept();
          connections.incrementAndGet();
          Thread serve = new Thread(() -> serve(socket), "pieces-module-connection");
          serve.setDaemon(true);
          serve.start();
        } catch (IOException e) {
          return;
        }
      }
    }

    private void serve(Socket socket) {
      try (socket) {
        InputStream in = socket.getInputStream();
        OutputStream out = socket.getOutputStream();
        for (String path; (path = requestPath(in)) != null; ) {
          String body = path.substring(1);
          byte[] head =
              ("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: "
                      + body.length()
                      + "\r\n\r\n")
                  .getBytes(StandardCharsets.ISO_8859_1);
          if (path.equals("/pieces")) {
            out.write(head);
            out.flush();
            go.take();
            out.write(body.getBytes(StandardCharsets.ISO_8859_1));
          } else {
            out.write((new String(head, StandardCharsets.ISO_8859_1) + body).getBytes());
          }
          out.flush();
        }
      } catch (IOException | InterruptedException e) {
        // the connection ended
      }
    }

    /**
     * @return the path of the next request (heads only, no bodies), null at the end
     */
    private static String requestPath(InputStream in) throws IOException {
      StringBuilder head = new StringBuilder();
      while (!head.toString().endsWith("\r\n\r\n")) {
        int b = in.read();
        if (b < 0) {
          return null;
        }
        head.append((char) b);
      }
      String line = head.substring(0, head.indexOf("\r\n"));
      return line.split(" ")[1];
    }

    @Override
    public void close() throws IOException {
      server.close();
    }
  }
}
