package io.okapigw.core.testing;

import io.netty.channel.Channel;
import io.netty.channel.socket.nio.NioChannelOption;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import jdk.net.ExtendedSocketOptions;

/**
 * What Linux says of a gateway channel's ACKs: {@code getsockopt(TCP_QUICKACK)} reads 1 unless the
 * socket is in delayed-ACK ({@code pingpong}) mode, where the kernel holds the ACK of what it
 * received for up to 40 ms, hoping to send it with data. A kept-alive connection that answers at
 * once is put there; a peer that writes a message in pieces without {@code TCP_NODELAY} then waits
 * that long for each piece after the first.
 */
public final class DelayedAcks {

  private DelayedAcks() {}

  /**
   * @return whether the JDK reads the option on this system (Linux); tests that need it skip
   *     elsewhere
   */
  public static boolean readable() {
    try (java.nio.channels.SocketChannel probe = java.nio.channels.SocketChannel.open()) {
      return probe.supportedOptions().contains(ExtendedSocketOptions.TCP_QUICKACK);
    } catch (java.io.IOException | LinkageError e) {
      return false;
    }
  }

  /**
   * @return, once the channel's event loop has finished what it is doing now (the read under way
   *     and its end), whether the channel acknowledges at once (not in delayed-ACK mode)
   */
  public static Future<Boolean> quickAfterThisRead(Channel channel) {
    Promise<Boolean> quick = Promise.promise();
    channel
        .eventLoop()
        .execute(
            () ->
                quick.complete(
                    channel
                        .config()
                        .getOption(NioChannelOption.of(ExtendedSocketOptions.TCP_QUICKACK))));
    return quick.future();
  }
}
