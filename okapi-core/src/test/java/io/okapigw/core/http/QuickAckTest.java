package io.okapigw.core.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http.HttpResponseDecoder;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * When the gateway asks for an immediate ACK: at the end of every read that leaves a message
 * incomplete (its head cut, its body not ended), never after a read that brings a message whole.
 * Each {@code read} here is one read of the socket.
 */
class QuickAckTest {

  private static final String HEAD = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n";
  private static final String ANSWER_HEAD = HEAD + "Content-Length: 3\r\n\r\n";

  private final AtomicInteger acks = new AtomicInteger();
  private EmbeddedChannel channel;

  @AfterEach
  void close() {
    for (Object msg; (msg = channel.readInbound()) != null; ) {
      ReferenceCountUtil.release(msg);
    }
    channel.finishAndReleaseAll();
  }

  private void answers() {
    channel =
        new EmbeddedChannel(new HttpResponseDecoder(), new QuickAck(c -> acks.incrementAndGet()));
  }

  private void requests() {
    channel =
        new EmbeddedChannel(new HttpRequestDecoder(), new QuickAck(c -> acks.incrementAndGet()));
  }

  private void read(String bytes) {
    channel.writeInbound(Unpooled.copiedBuffer(bytes, StandardCharsets.ISO_8859_1));
  }

  @Test
  void answerInOneRead_noAckAsked() {
    answers();
    read(ANSWER_HEAD + "abc");
    read(ANSWER_HEAD + "def");
    assertThat(acks).hasValue(0);
  }

  @Test
  void headThenBody_oneAckAfterTheHead() {
    answers();
    read(ANSWER_HEAD);
    assertThat(acks).hasValue(1);
    read("abc");
    assertThat(acks).hasValue(1);
  }

  @Test
  void headDribbledInThreeReads_anAckAfterEach() {
    answers();
    read("HTTP/1.1 200 OK\r\n");
    read("Content-Type: text/plain\r\n");
    read("Content-Length: 3\r\n\r\n");
    assertThat(acks).hasValue(3);
    read("abc");
    assertThat(acks).hasValue(3);
  }

  @Test
  void chunkedBody_anAckAfterEveryReadBeforeTheLastChunk() {
    answers();
    read(HEAD + "Transfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n");
    read("3\r\ndef\r\n");
    read("0\r\n\r\n");
    assertThat(acks).hasValue(2);
  }

  @Test
  void requestHeadThenBody_oneAck_wholeGetsNone() {
    requests();
    read("GET /a HTTP/1.1\r\nHost: x\r\n\r\n");
    assertThat(acks).hasValue(0);
    read("POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\n");
    assertThat(acks).hasValue(1);
    read("body");
    read("GET /b HTTP/1.1\r\nHost: x\r\n\r\n");
    assertThat(acks).hasValue(1);
  }
}
