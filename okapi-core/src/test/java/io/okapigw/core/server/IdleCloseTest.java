package io.okapigw.core.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.timeout.IdleStateEvent;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link IdleClose} on the loop's clock, moved by hand: no sleeps. */
class IdleCloseTest {

  private EmbeddedChannel ch;
  private int events;

  @BeforeEach
  void start() {
    ch = new EmbeddedChannel();
    ch.freezeTime();
    ch.pipeline()
        .addLast(new IdleClose(1000))
        .addLast(
            new ChannelInboundHandlerAdapter() {
              @Override
              public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
                if (event instanceof IdleStateEvent) {
                  events++;
                }
              }

              @Override
              public void channelRead(ChannelHandlerContext ctx, Object msg) {}
            });
  }

  private void advance(long millis) {
    ch.advanceTimeBy(millis, TimeUnit.MILLISECONDS);
    ch.runScheduledPendingTasks();
  }

  @Test
  void silentConnection_idleAtTheTimeout_againAfterAnother() {
    advance(999);
    assertThat(events).isZero();
    advance(1);
    assertThat(events).isEqualTo(1);
    advance(1000);
    assertThat(events).isEqualTo(2);
  }

  @Test
  void flush_movesTheDeadline() {
    advance(600);
    ch.flush();
    advance(600);
    assertThat(events).isZero();
    advance(400);
    assertThat(events).isEqualTo(1);
  }

  @Test
  void readBurst_movesTheDeadline() {
    advance(600);
    ch.writeInbound("bytes");
    advance(600);
    assertThat(events).isZero();
    advance(400);
    assertThat(events).isEqualTo(1);
  }

  @Test
  void readUnderWay_neverIdle() {
    ch.pipeline().fireChannelRead("bytes");
    advance(5000);
    assertThat(events).isZero();
  }

  @Test
  void writeNotFlushed_doesNotCount() {
    advance(600);
    ch.write("bytes");
    advance(400);
    assertThat(events).isEqualTo(1);
  }

  @Test
  void closedConnection_noEvent() {
    ch.close();
    advance(2000);
    assertThat(events).isZero();
  }
}
