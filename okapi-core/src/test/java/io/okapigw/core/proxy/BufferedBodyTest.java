package io.okapigw.core.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.okapigw.core.http.HttpError;
import io.okapigw.core.testing.RawClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A body read whole whose reading fails midway fails, never ends as a body: the cut the hostile
 * probe found (six 60 MiB uploads, 256 MiB of heap: an {@link OutOfMemoryError} growing the buffer
 * went to Vert.x's handler of unhandled failures, the next pieces were added after the hole, and
 * the module got a body 3 to 33 MiB short with a Content-Length to match, the client 200). Here a
 * piece fails to be added as memory running out would fail it; the room the body took is all given
 * back.
 */
class BufferedBodyTest {

  private static final int BOUND = 64 * 1024;

  private final Vertx vertx = Vertx.vertx();
  private final BodyBudget budget =
      new BodyBudget(new BufferOptions(BOUND, 4 * BOUND), new SimpleMeterRegistry());

  @AfterEach
  void close() {
    vertx.close().await();
  }

  /**
   * @return how the read of a body sent in pieces of 1000 bytes ended, each piece added by {@code
   *     append}
   */
  private Future<Buffer> read(BiConsumer<Buffer, Buffer> append, String framing, int size)
      throws Exception {
    CompletableFuture<Future<Buffer>> read = new CompletableFuture<>();
    HttpServer server =
        vertx
            .createHttpServer()
            .requestHandler(
                req -> {
                  req.pause();
                  BodyBudget.Claim claim = budget.claim();
                  Future<Buffer> body = BufferedBody.read(req, claim, budget.options(), append);
                  body.onComplete(
                      done -> {
                        claim.release();
                        read.complete(body);
                        req.response().end();
                      });
                })
            .listen(0, "127.0.0.1")
            .await();
    try (RawClient client = RawClient.connect(server.actualPort())) {
      client.send("POST /x HTTP/1.1\r\nHost: localhost\r\n" + framing + "\r\n\r\n");
      for (int sent = 0; sent < size; sent += 1000) {
        int n = Math.min(1000, size - sent);
        if (framing.startsWith("Transfer-Encoding")) {
          client.send(Integer.toHexString(n) + "\r\n").body(n).send("\r\n");
        } else {
          client.body(n);
        }
      }
      if (framing.startsWith("Transfer-Encoding")) {
        client.send("0\r\n\r\n");
      }
      return read.get(1, TimeUnit.MINUTES);
    } finally {
      server.close().await();
    }
  }

  /**
   * Adds pieces as {@link Buffer#appendBuffer}, but the one that would take the body past 3000
   * bytes fails, once, as growing the buffer fails when memory runs out (a smaller piece after it
   * may fit again, as it did in the probe).
   */
  private static BiConsumer<Buffer, Buffer> outOfMemoryPast3000Bytes() {
    boolean[] failed = {false};
    return (body, chunk) -> {
      if (!failed[0] && body.length() + chunk.length() > 3000) {
        failed[0] = true;
        throw new OutOfMemoryError("Java heap space");
      }
      body.appendBuffer(chunk);
    };
  }

  @Test
  void aPieceCannotBeAdded_theReadFails503_neverABodyCutShort_itsRoomGivenBack() throws Exception {
    for (String framing : new String[] {"Content-Length: 10000", "Transfer-Encoding: chunked"}) {
      Future<Buffer> read = read(outOfMemoryPast3000Bytes(), framing, 10_000);

      assertThat(read.failed()).as("read with " + framing).isTrue();
      assertThat(read.cause()).isInstanceOf(HttpError.class);
      assertThat(((HttpError) read.cause()).status()).isEqualTo(503);
      assertThat(read.cause().getMessage()).contains("OutOfMemoryError");
      assertThat(budget.used()).isZero();
    }
  }

  /**
   * How the cut happened: the reader of ac01f53 ({@code BufferedHandler.body}) added each piece in
   * a plain handler; Vert.x reports what a handler throws and reads on, and the end completes the
   * body, short of what was sent.
   */
  @Test
  void cause_vertxReadsOnAfterAHandlerThrows_soAPlainReaderEndsWithACutBody() throws Exception {
    CompletableFuture<Integer> ended = new CompletableFuture<>();
    BiConsumer<Buffer, Buffer> append = outOfMemoryPast3000Bytes();
    HttpServer server =
        vertx
            .createHttpServer()
            .requestHandler(
                req -> {
                  Buffer body = Buffer.buffer();
                  req.handler(chunk -> append.accept(body, chunk));
                  req.endHandler(
                      v -> {
                        ended.complete(body.length());
                        req.response().end();
                      });
                })
            .listen(0, "127.0.0.1")
            .await();
    try (RawClient client = RawClient.connect(server.actualPort())) {
      client.send("POST /x HTTP/1.1\r\nHost: localhost\r\nContent-Length: 10000\r\n\r\n");
      client.body(10_000);
      assertThat(ended.get(1, TimeUnit.MINUTES))
          .as("bytes of 10000 the body ended with")
          .isLessThan(10_000);
    } finally {
      server.close().await();
    }
  }

  @Test
  void everyPieceAdded_theBodyWhole() throws Exception {
    Future<Buffer> read = read(Buffer::appendBuffer, "Transfer-Encoding: chunked", 10_000);

    assertThat(read.succeeded()).isTrue();
    assertThat(read.result().length()).isEqualTo(10_000);
  }
}
