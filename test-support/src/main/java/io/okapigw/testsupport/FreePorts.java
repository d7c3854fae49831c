package io.okapigw.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports for servers a test starts later (Hazelcast members listed to each other in advance,
 * processes told their port): free at the time of asking and below Linux's ephemeral range
 * (32768-60999), so no port the kernel hands out meanwhile (a listener on port 0, an outgoing
 * connection) can take it before the server binds it.
 */
public final class FreePorts {

  static final int FIRST_PORT = 20_000;
  static final int LAST_PORT = 32_767;
  private static final int TRIES = 200;

  private FreePorts() {}

  /**
   * @return a free port in {@value #FIRST_PORT} to {@value #LAST_PORT}
   * @throws UncheckedIOException if none of {@value #TRIES} random ports there was free
   */
  public static int belowEphemeralRange() {
    for (int i = 0; i < TRIES; i++) {
      int port = ThreadLocalRandom.current().nextInt(FIRST_PORT, LAST_PORT + 1);
      try (ServerSocket socket = new ServerSocket(port)) {
        return socket.getLocalPort();
      } catch (IOException taken) {
        // try another
      }
    }
    throw new UncheckedIOException(
        new IOException(
            "no free port among " + TRIES + " tries in " + FIRST_PORT + "-" + LAST_PORT));
  }

  /**
   * A port where nothing listens, for a test of an instance that is down (its connections refused).
   * Not one of the ephemeral range, as a closed listener's port 0 would be: the kernel may hand
   * that out again meanwhile, to another listener or to an outgoing connection, and a connection to
   * a port that is its own source port connects to itself (TCP's self-connect), so the "dead"
   * instance would answer now and then.
   *
   * @return a free port in {@value #FIRST_PORT} to {@value #LAST_PORT}
   */
  public static int closed() {
    return belowEphemeralRange();
  }

  /**
   * @return whether something listens on {@code port} of 127.0.0.1 (a connection within a second)
   */
  public static boolean listening(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
