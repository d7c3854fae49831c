package io.okapigw.core.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.channel.Channel;
import io.okapigw.core.testing.DelayedAcks;
import io.okapigw.core.testing.RawClient;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 44, item 1, the client's side: a client that writes its request's head and its body in two
 * writes without {@code TCP_NODELAY} holds the body until the head is acknowledged (Nagle); on a
 * kept-alive connection the gateway's kernel delayed that ACK (up to 40 ms), so each such request
 * waited that long. On the client listener a read that leaves a request incomplete now asks for the
 * ACK at once ({@link io.okapigw.core.http.QuickAck}). Not timed: the client sends the body only
 * once the listener's read of the head is over and the socket's state has been read.
 */
class PartialRequestAckTest {

  private static final ServerOptions TIMEOUTS =
      new ServerOptions(Duration.ofMinutes(1), Duration.ofMinutes(2), 100, 100, 100);

  private final Vertx vertx = Vertx.vertx();
  private final Drain drain = new Drain(new DrainOptions(Duration.ofSeconds(60), Duration.ZERO));
  private final ConnectionMetrics metrics = new ConnectionMetrics(new SimpleMeterRegistry());
  private final Promise<Boolean> quickAfterHead = Promise.promise();

  @AfterEach
  void close() {
    vertx.close().await();
  }

  @Test
  void headThenBody_onAKeptAliveConnection_notLeftInDelayedAckMode() throws Exception {
    assumeTrue(DelayedAcks.readable(), "TCP_QUICKACK cannot be read on this system (not Linux)");
    int port = listen();
    try (RawClient client = RawClient.connect(port)) {
      // a few requests answered at once: the kernel takes the connection for an interactive one
      for (int i = 0; i < 3; i++) {
        client.send("GET /first HTTP/1.1\r\nHost: x\r\n\r\n");
        assertThat(client.response().body()).isEqualTo("first");
      }
      client.send("POST /second HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\n");
      boolean acksAtOnce = quickAfterHead.future().await(1, TimeUnit.MINUTES);
      client.send("body");
      assertThat(client.response().body()).isEqualTo("got body");
      assertThat(acksAtOnce)
          .as("the listener's side acknowledges at once after reading the head alone")
          .isTrue();
    }
  }

  private Handler<HttpServerRequest> handler(
      java.util.function.Function<HttpServerRequest, Channel> channel) {
    return request -> {
      if (request.path().equals("/first")) {
        request.response().end("first");
        return;
      }
      DelayedAcks.quickAfterThisRead(channel.apply(request)).onComplete(quickAfterHead);
      request.body().onSuccess(body -> request.response().end("got " + body));
    };
  }

  private int listen() {
    HttpListener listener =
        new HttpListener(
            vertx,
            HttpListener.loops(vertx, 1),
            new HttpServerOptions(),
            TIMEOUTS,
            drain,
            metrics,
            new Listener(
                "127.0.0.1",
                0,
                handler(request -> ((ConnectionView) request.connection()).channel()),
                metrics.limit("public", 100)),
            false);
    Future<Void> listening = listener.listen("127.0.0.1", 0);
    listening.await();
    return listener.port();
  }
}
